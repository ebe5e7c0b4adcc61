from engines.rng import Rng


def test_same_seed_same_sequence_and_resume():
    a, b = Rng(42), Rng(42)
    assert [a.below(100) for _ in range(50)] == [b.below(100) for _ in range(50)]
    resumed = Rng(a.state)
    assert [a.next64() for _ in range(5)] == [resumed.next64() for _ in range(5)]


def test_shuffle_is_a_permutation_and_roughly_uniform():
    rng = Rng(7)
    counts = [0] * 4
    for _ in range(4000):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        assert sorted(items) == [0, 1, 2, 3]
        counts[items[0]] += 1
    assert all(850 < c < 1150 for c in counts)
