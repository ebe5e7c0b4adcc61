"""Property tests of the pure tournament logic (tournaments/): Swiss pairing (no rematch while one can be
avoided, at most one bye each, seats balanced, tables grouped by score), the elimination bracket (top seeds get
the byes, one champion, the third-place match), Berger round robins and the tie-breaks."""

from __future__ import annotations

import itertools
from collections import Counter

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import elimination
from tournaments.roundrobin import berger
from tournaments.standings import Result, points, standings
from tournaments.swiss import pair_round, seat_balance, table_sizes

outcomes = st.sampled_from([(1, 2), (2, 1), (1, 1)])


def _avoidable(players: list[int], met: set[frozenset]) -> bool:
    """Whether ``players`` can all be paired without a rematch."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for a, b in itertools.combinations(players, 2) if frozenset((a, b)) not in met)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(players)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 22), rounds=st.integers(1, 7), data=st.data())
def test_swiss_pairs_everybody_once_without_avoidable_rematches(count, rounds, data):
    players = list(range(100, 100 + count))
    results: list[Result] = []
    met: set[frozenset] = set()
    byes = Counter()
    for r in range(1, rounds + 1):
        tables, bye = pair_round(players, results, r)
        seated = [p for t in tables for p in t] + bye
        assert sorted(seated) == players  # everybody plays or has the bye, once
        assert len(bye) == count % 2
        paired = [p for t in tables for p in t]
        if _avoidable(paired, met):
            assert not any(frozenset(t) in met for t in tables), "a rematch that could be avoided"
        for p in bye:
            if r <= count:  # while somebody has had no bye, nobody gets a second
                assert byes[p] == 0
            byes[p] += 1
            results.append(Result(r, (p,), (1,)))
        for t in tables:
            met.add(frozenset(t))
            results.append(Result(r, t, data.draw(outcomes)))
    for row in standings(players, results):
        assert abs(seat_balance(row)) <= 2, "seat 0 (the side that begins) is shared out"


def test_swiss_pairs_equal_scores_first():
    players = [1, 2, 3, 4]
    results = [Result(1, (1, 2), (1, 2)), Result(1, (3, 4), (1, 2))]
    tables, _ = pair_round(players, results, 2)
    assert {frozenset(t) for t in tables} == {frozenset((1, 3)), frozenset((2, 4))}
    # seat 0 to who had seat 1
    assert all(t[0] in (2, 4) or t[0] in (3, 4) for t in tables)


def test_a_dropped_player_is_no_longer_paired():
    tables, byes = pair_round([1, 2, 3, 4], [], 1, dropped=[3])
    assert 3 not in {p for t in tables for p in t} | set(byes) and len(byes) == 1


@settings(max_examples=40, deadline=None)
@given(count=st.integers(3, 30), size=st.integers(3, 6), rounds=st.integers(1, 5), data=st.data())
def test_swiss_tables_of_n_are_grouped_by_score(count, size, rounds, data):
    players = list(range(count))
    results: list[Result] = []
    for r in range(1, rounds + 1):
        table = standings(players, results)
        rank = {row.player: i for i, row in enumerate(table)}
        tables, bye = pair_round(players, results, r, table_size=size)
        assert sorted(p for t in tables for p in t) + bye == sorted(players) or \
            sorted([p for t in tables for p in t] + bye) == players
        assert all(2 <= len(t) <= size for t in tables) and len(bye) <= 1
        assert max(len(t) for t in tables) - min(len(t) for t in tables) <= 1
        firsts = [min(rank[p] for p in t) for t in tables]
        assert firsts == sorted(firsts), "the tables go down the ranking"
        for t in tables:
            order = data.draw(st.permutations(range(1, len(t) + 1)))
            results.append(Result(r, t, tuple(order)))
    seat0 = Counter(t.players[0] for t in results if not t.bye)
    if rounds >= 3 and count % size == 0:
        assert max(seat0.values()) - min(seat0.get(p, 0) for p in players) <= rounds - 1


def test_table_sizes():
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(5, 2) == [2, 2, 1]


def test_points_by_place_and_tie_breaks():
    assert [points((1, 2, 3, 4), i) for i in range(4)] == [1, 2 / 3, 1 / 3, 0]
    assert points((1, 1), 0) == 0.5 and points((1,), 0) == 1
    # 1 beats 2 and 3; 4 beats 3 only: 2 and 4 are level on points, 2 met the stronger field
    results = [Result(1, (1, 2), (1, 2)), Result(1, (3, 4), (2, 1)), Result(2, (1, 3), (1, 2)),
               Result(2, (2, 4), (1, 2)), Result(3, (1, 4), (1, 2)), Result(3, (2, 3), (2, 1))]
    table = standings([1, 2, 3, 4], results)
    rows = {r.player: r for r in table}
    assert rows[1].points == 3 and rows[2].points == rows[4].points == rows[3].points == 1
    assert rows[2].buchholz == 3 + 1 + 1 and rows[2].sonneborn == 1  # beat 4 (1 point)
    assert [r.player for r in table][0] == 1


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 40), third=st.booleans(), data=st.data())
def test_an_elimination_bracket_plays_down_to_one_champion(count, third, data):
    seeded = list(range(1, count + 1))  # seed order: 1 is the best
    matches = elimination.first_round(seeded)
    size = 1 << elimination.rounds_for(count)
    byes = [m.players[0] for m in matches if len(m.players) == 1]
    assert sorted(byes) == list(range(1, size - count + 1)), "the byes go to the top seeds"
    assert len(matches) == size // 2 and sorted(p for m in matches for p in m.players) == seeded
    everything = []
    seats = Counter()
    while matches:
        done = []
        for m in matches:
            places = None if len(m.players) == 1 else data.draw(outcomes)
            if len(m.players) == 2:
                seats[m.players[0]] += 1
            done.append((m, places))
        everything += done
        matches = elimination.next_round(seeded, done, third_place=third, seats=seats)
        alive = [p for m in matches for p in m.players]
        assert len(alive) == len(set(alive))
    assert max(m.round for m, _ in everything) == elimination.rounds_for(count)
    places = elimination.final_places(seeded, everything)
    assert sorted(p for group in places for p in group) == seeded and len(places[0]) == 1
    has_third = any(m.slot == 1 and m.round == elimination.rounds_for(count) for m, _ in everything)
    assert has_third == (third and count >= 4)
    if has_third:
        assert [len(g) for g in places[:4]] == [1, 1, 1, 1]


def test_the_bracket_keeps_the_top_seeds_apart():
    assert elimination.slot_seeds(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    final = [elimination.Match(1, 0, (1, 2))]
    assert elimination.next_round([1, 2], [(final[0], (1, 1))]) == []
    assert elimination.winner((5, 3), (1, 1), {5: 4, 3: 2}) == 3  # a draw goes to the higher seed


@given(count=st.integers(2, 24), double=st.booleans())
def test_berger_tables_meet_everybody_once_with_balanced_seats(count, double):
    rounds = berger(list(range(count)), double=double)
    assert len(rounds) == (count - 1 + count % 2) * (2 if double else 1)
    meetings = Counter()
    first = Counter()
    for tables in rounds:
        seen = [p for t in tables for p in t]
        assert sorted(seen) == list(range(count))
        for t in tables:
            if len(t) == 2:
                meetings[frozenset(t)] += 1
                first[t[0]] += 1
    assert set(meetings.values()) == {2 if double else 1}
    assert len(meetings) == count * (count - 1) // 2
    games = (count - 1) * (2 if double else 1)
    for p in range(count):
        assert abs(2 * first[p] - games) <= (0 if double else 1)


def test_a_256_player_swiss_round_pairs_within_the_budget():
    from bench.tournaments import BUDGET_MS, main
    assert main(256, 4) < BUDGET_MS * 3  # (loose here: a busy test machine; `make bench` holds the real budget)
