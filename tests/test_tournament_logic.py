"""Property tests and worked examples of the pure tournament logic (tournaments/): exact points and the
organizer's tie-breaks with FIDE's rules for unplayed rounds, Swiss pairing by the Dutch system (no rematch while
one can be avoided - also through the choice of the bye -, score groups kept whole whenever that is possible, no
seat three games running, seat balance within ±2, pairings derived by hand from the FIDE handbook's rules),
the fallback when the budget runs out, tables of 3-6, the elimination bracket and Berger tables."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction as F

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import dutch, elimination
from tournaments.roundrobin import berger, berger_numbers
from tournaments.standings import HALF_BYE, Result, check_tiebreaks, podium, points, standings
from tournaments.swiss import entrants, plan_round, table_sizes, tables

outcomes = st.sampled_from([(1, 2), (2, 1), (1, 1)])


# -- exact points and tie-breaks -------------------------------------------------------------------------

def test_points_are_exact_fractions():
    assert [points((1, 2, 3, 4), i) for i in range(4)] == [1, F(2, 3), F(1, 3), 0]
    assert points((1, 1), 0) == F(1, 2) and points((1,), 0) == 1
    assert points((1,), 0, HALF_BYE) == F(1, 2)
    # 1 + 2/3 + 1/3 is exactly 2: the two are level on points and the tie-breaks decide
    results = [Result(1, (1, 9, 8, 7), (1, 2, 3, 4)), Result(2, (9, 1, 8, 7), (1, 2, 3, 4)),
               Result(3, (8, 7, 1, 9), (1, 2, 3, 4)), Result(1, (2, 3), (1, 2)), Result(2, (2, 4), (1, 2)),
               Result(3, (5, 2), (1, 2))]
    rows = {r.player: r for r in standings([1, 2, 3, 4, 5, 7, 8, 9], results)}
    assert rows[1].points == rows[2].points == 2
    assert isinstance(rows[1].points, F)


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(2, 6), min_size=1, max_size=5), rounds=st.integers(1, 4), data=st.data())
def test_points_add_up_exactly_and_rank_in_order(sizes, rounds, data):
    players = list(range(sum(sizes)))
    results = []
    for r in range(1, rounds + 1):
        order = data.draw(st.permutations(players))
        start = 0
        for n in sizes:
            table = tuple(order[start:start + n])
            start += n
            places = tuple(data.draw(st.integers(1, n)) for _ in range(n))
            results.append(Result(r, table, places))
    rows = standings(players, results)
    # each pair at a table shares out one point: a table of n gives n/2, exactly (no rounding error anywhere)
    assert sum(r.points for r in rows) == sum(F(n, 2) for n in sizes) * rounds
    ranking = [(r.points, r.tiebreaks["buchholz_cut1"], r.tiebreaks["buchholz"], r.tiebreaks["sonneborn"])
               for r in rows]
    assert ranking == sorted(ranking, reverse=True)
    assert [r.place for r in rows] == sorted(r.place for r in rows)


def test_buchholz_sonneborn_berger_and_cut_by_hand():
    # 1 beats 2 and 3; 4 beats 3 only: 2, 3 and 4 have a point each
    results = [Result(1, (1, 2), (1, 2)), Result(1, (3, 4), (2, 1)), Result(2, (1, 3), (1, 2)),
               Result(2, (2, 4), (1, 2)), Result(3, (1, 4), (1, 2)), Result(3, (2, 3), (2, 1))]
    rows = {r.player: r for r in standings([1, 2, 3, 4], results, tiebreaks=("buchholz", "sonneborn"))}
    assert rows[1].points == 3 and rows[2].points == rows[3].points == rows[4].points == 1
    assert rows[2].buchholz == 3 + 1 + 1 and rows[2].sonneborn == 1  # beat 4 (1 point)
    assert rows[2].tiebreaks["buchholz_cut1"] == 4  # the least contribution (1) cut
    assert [r.player for r in standings([1, 2, 3, 4], results)][0] == 1


def test_buchholz_weighs_a_table_of_four_like_a_table_of_two():
    # the last of a table of four whose three others shared first place (⅔ each), and the loser of a game of two
    # whose opponent has 1 point: a round's contribution is the mean of the opponents' scores, not their sum
    results = [Result(1, (10, 11, 12, 13), (2, 1, 1, 1)), Result(1, (20, 21), (1, 2))]
    rows = {r.player: r for r in standings([10, 11, 12, 13, 20, 21], results)}
    assert rows[11].points == F(2, 3)
    assert rows[10].buchholz == F(2, 3) and rows[21].buchholz == 1
    assert rows[11].buchholz == (0 + F(2, 3) + F(2, 3)) / 3


def test_unplayed_rounds_follow_fide():
    # 1 has a bye in round 1 and beats 2 in round 2; 3 beats 4, then 3 and 4 meet 2... see the comments
    results = [Result(1, (1,), (1,)), Result(1, (2, 3), (1, 2)), Result(2, (1, 2), (1, 2)),
               Result(2, (3,), (1,), HALF_BYE)]
    rows = {r.player: r for r in standings([1, 2, 3], results)}
    assert rows[1].points == 2 and rows[2].points == 1 and rows[3].points == F(1, 2)
    # 1's bye: a dummy opponent with 1's own 2 points; 2 lends their real score (no unplayed round): 1
    assert rows[1].buchholz == 2 + 1
    # 2 met 3, whose requested bye counts as a draw in the score 3 lends (0 + ½), and 1 (bye as a draw: ½ + 1)
    assert rows[2].buchholz == F(1, 2) + F(3, 2)
    # 3's own half-point bye is a voluntary unplayed round: cut first (not the smaller real contribution)
    assert rows[3].tiebreaks["buchholz"] == 1 + F(1, 2)  # 2's score 1, then the dummy opponent with 3's ½
    assert rows[3].tiebreaks["buchholz_cut1"] == 1
    # Sonneborn-Berger: the bye adds the dummy opponent's score times the point the bye gave
    assert rows[1].sonneborn == 2 * 1 + 1 * 1


def test_a_late_entry_and_a_withdrawal_count_as_unplayed_rounds():
    results = [Result(1, (1, 2), (1, 2)), Result(2, (1, 3), (1, 2)), Result(2, (2,), (1,))]
    rows = {r.player: r for r in standings([1, 2, 3], results)}  # 3 joined in round 2
    assert len(rows[3].rounds) == 2 and not rows[3].rounds[0].played
    # what 1's opponents lend: 2 lost to 1 and had a bye (counted as a draw): ½; 3 missed round 1 (a draw) and
    # lost to 1: ½
    assert rows[1].buchholz == F(1, 2) + F(1, 2)
    # 3's own missed round: a dummy opponent with 3's own score (0), voluntary, so cut first
    assert rows[3].tiebreaks["buchholz"] == 2 and rows[3].tiebreaks["buchholz_cut1"] == 2


def test_direct_encounter_only_among_players_who_all_met():
    # 1 beat 2 in round 1, 3 beat 1 in round 2: 1 and 2 (seeded 2 above 1) are level on a point and met
    results = [Result(1, (1, 2), (1, 2)), Result(1, (3, 4), (1, 2)), Result(2, (3, 1), (1, 2)),
               Result(2, (2, 4), (1, 2))]
    rows = standings([2, 1, 3, 4], results, tiebreaks=("direct",))
    assert [r.player for r in rows] == [3, 1, 2, 4], "1 beat 2"
    assert [r.tiebreaks["direct"] for r in rows][1:3] == [1, 0]
    # six players, four of them level on a point who did not all meet: direct encounter leaves them level
    results = [Result(1, (1, 2), (1, 2)), Result(1, (3, 4), (1, 2)), Result(1, (5, 6), (1, 2)),
               Result(2, (1, 3), (1, 2)), Result(2, (2, 5), (1, 2)), Result(2, (4, 6), (1, 2))]
    rows = standings(list(range(1, 7)), results, tiebreaks=("direct",))
    level = [r for r in rows if r.points == 1]
    assert [r.player for r in level] == [2, 3, 4, 5] and {r.place for r in level} == {2}


def test_wins_and_rating_tie_breaks():
    results = [Result(1, (1, 2), (1, 1)), Result(1, (3, 4), (1, 2)), Result(2, (1, 3), (1, 1)),
               Result(2, (2, 4), (1, 1))]
    by_wins = standings([1, 2, 3, 4], results, tiebreaks=("wins",))
    assert by_wins[0].player == 3  # 1½ points; then 1 (1 point) ...
    rows = standings([1, 2, 3, 4], results, tiebreaks=("rating",), ratings={2: 10.0, 1: 3.5})
    ones = [r.player for r in rows if r.points == 1]
    assert ones == [1, 2] or ones == [2, 1]
    assert ones[0] == 2, "the higher rating first"
    with pytest.raises(ValueError):
        check_tiebreaks(["buchholz", "median"])
    with pytest.raises(ValueError):
        check_tiebreaks(["buchholz", "buchholz"])
    assert check_tiebreaks(["direct", "wins"]) == ("direct", "wins")


def test_podium_shares_a_place_only_when_everything_is_level():
    results = [Result(1, (1, 2), (1, 1)), Result(1, (3, 4), (1, 1))]
    assert podium(standings([1, 2, 3, 4], results)) == [[1, 2, 3, 4]]


# -- the Dutch system --------------------------------------------------------------------------------------

def _play(players: list[int], rounds: int, data, **kwargs):
    """Rounds paired and played with drawn results; the budget is generous (these test the rules, not the speed:
    bench/tournaments.py measures that, and a loaded test machine must not turn a round into a fallback)."""
    results: list[Result] = []
    plans = []
    kwargs.setdefault("budget", 60)
    for r in range(1, rounds + 1):
        field = entrants(players, results)
        plan = plan_round(players, results, r, **kwargs)
        plans.append((field, plan))
        for p in plan.byes:
            results.append(Result(r, (p,), (1,)))
        for t in plan.tables:
            results.append(Result(r, t, data.draw(outcomes)))
    return results, plans


def _perfect(players: list[int], may) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for a, b in itertools.combinations(players, 2) if may(a, b))
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(players)


def _unmet(met: dict):
    return lambda a, b: b not in met[a]


def _all_equal(field, players: list[int], bye: int | None) -> bool:
    """Whether every score group (without ``bye``) can be paired within itself under C1 and C3."""
    score = {e.id: e.score for e in field}
    met = {e.id: e.opponents for e in field}
    absolute = {e.id: e.preference[0] for e in field if e.preference[1] == dutch.ABSOLUTE}

    def legal(a, b):
        return score[a] == score[b] and b not in met[a] and not (a in absolute and absolute.get(b) == absolute[a])

    groups: dict = {}
    for p in players:
        if p != bye:
            groups.setdefault(score[p], []).append(p)
    return all(_perfect(g, legal) for g in groups.values())


def _bye_choices(field) -> list[int]:
    if len(field) % 2 == 0:
        return [None]
    fresh = [e.id for e in field if not e.had_bye]
    return fresh or [e.id for e in field]


@settings(max_examples=80, deadline=None)
@given(count=st.integers(2, 24), rounds=st.integers(1, 9), data=st.data())
def test_dutch_rounds_are_legal_and_avoid_rematches_whenever_possible(count, rounds, data):
    players = list(range(100, 100 + count))
    results, plans = _play(players, rounds, data)
    for field, plan in plans:
        seated = [p for t in plan.tables for p in t] + plan.byes
        assert sorted(seated) == players, "everybody plays or has the bye, once"
        assert len(plan.byes) == count % 2
        met = {e.id: e.opponents for e in field}
        fresh = [e.id for e in field if not e.had_bye]
        if plan.byes and fresh:
            assert plan.byes[0] in fresh, "no second bye while somebody has had none"
        avoidable = any(_perfect([p for p in players if p != b], _unmet(met)) for b in _bye_choices(field))
        if avoidable:
            assert plan.method == "dutch" and "rematch" not in plan.relaxed
            assert not any(t[1] in met[t[0]] for t in plan.tables), "a rematch that could be avoided"
    for e in entrants(players, results):
        if not any("colour" in plan.relaxed for _, plan in plans):
            played = [c for c in e.colours if c]
            assert abs(sum(played)) <= 2, "seat balance within ±2"
            assert not any(played[i] == played[i + 1] == played[i + 2] for i in range(len(played) - 2)), \
                "never the same seat three games running"


@settings(max_examples=60, deadline=None)
@given(count=st.integers(4, 16), rounds=st.integers(2, 6), data=st.data())
def test_score_groups_stay_whole_when_a_pairing_of_equals_exists(count, rounds, data):
    players = list(range(count))
    results, plans = _play(players, rounds, data)
    for field, plan in plans:
        score = {e.id: e.score for e in field}
        lowest = min(score.values())
        # (FIDE moves a higher player down rather than give the bye above the lowest score group)
        byes = [b for b in _bye_choices(field) if b is None or score[b] == lowest]
        if any(_all_equal(field, players, b) for b in byes):
            assert all(score[a] == score[b] for a, b in plan.tables), \
                "a pair across score groups although every group could be paired within itself"


def _field(results: list[Result], players: list[int]):
    return entrants(players, results)


def test_round_one_top_half_against_bottom_half_seats_alternate():
    pairing = dutch.pair(_field([], list(range(1, 9))))
    # C.04.3 A.2/E.5: S1 = 1-4 against S2 = 5-8; the higher-ranked player has seat 0 when their number is odd
    assert pairing.pairs == [(1, 5), (6, 2), (3, 7), (8, 4)] and pairing.bye is None
    odd = dutch.pair(_field([], list(range(1, 8))))
    assert odd.bye == 7 and odd.pairs == [(1, 4), (5, 2), (3, 6)]


def test_worked_example_an_exchange_of_d2():
    """12 players, round 2 (derived by hand from C.04.3, and what caissify-pairings gives): the 1-point bracket
    {2, 4, 11} pairs 2-4 and moves 11 down, who meets 1; the remainder {3, 6, 7, 9, 12} (S1 = 3, 6) has no
    transposition without a colour preference missed (6 met 12), and the first exchange of D.2 (6 for 7, the
    smallest difference of numbers) gives 3-6 and 7-12 with every preference met; 9 moves down to meet 5."""
    r1 = [Result(1, (1, 7), (1, 1)), Result(1, (8, 2), (2, 1)), Result(1, (3, 9), (1, 1)), Result(1, (10, 4), (2, 1)),
          Result(1, (5, 11), (2, 1)), Result(1, (12, 6), (1, 1))]
    pairing = dutch.pair(_field(r1, list(range(1, 13))))
    assert sorted(pairing.pairs) == [(2, 4), (6, 3), (7, 12), (9, 5), (10, 8), (11, 1)]


def test_worked_example_colour_preferences_decide_the_bye():
    """11 players, round 2: the last bracket {1, 2, 3, 9, 10} pairs 10-1 and 2-3 with every colour preference
    met, so the bye goes to 9 rather than to 10, the lowest (C10 comes before who gets the bye)."""
    r1 = [Result(1, (1, 6), (2, 1)), Result(1, (7, 2), (1, 2)), Result(1, (3, 8), (2, 1)), Result(1, (9, 4), (2, 1)),
          Result(1, (5, 10), (1, 2)), Result(1, (11,), (1,))]
    pairing = dutch.pair(_field(r1, list(range(1, 12))))
    assert sorted(pairing.pairs) == [(2, 3), (4, 7), (6, 11), (8, 5), (10, 1)] and pairing.bye == 9


def test_worked_example_the_next_bracket_decides_who_floats():
    """6 players, round 3: in the 1½ bracket {2, 4, 6} 2-4 is paired and 6 moves down although 6 floated down
    in round 2: moving 4 instead would leave 4 nobody to meet in the next bracket (4 met 1; C7 before C12).
    Seats: 3 and 5 both want seat 0 and never had different seats, so the higher-ranked 3 gets it (E.4)."""
    r1 = [Result(1, (1, 4), (1, 1)), Result(1, (5, 2), (2, 1)), Result(1, (3, 6), (1, 1))]
    r2 = [Result(2, (2, 1), (1, 1)), Result(2, (4, 3), (1, 2)), Result(2, (6, 5), (1, 2))]
    pairing = dutch.pair(_field(r1 + r2, list(range(1, 7))))
    assert sorted(pairing.pairs) == [(1, 6), (3, 5), (4, 2)]


def test_the_dutch_pairings_agree_with_a_reference_implementation():
    """caissify-pairings (a Dutch system checked round for round against the FIDE-endorsed bbpPairings) pairs most
    rounds of random small events exactly as we do; the rest differ where our search simplifies the criteria
    (see tournaments/dutch.py)."""
    from bench.tournaments import agreement
    assert agreement(20, seed=11) >= 85


def test_forbidden_pairs_and_excused_players():
    plan = plan_round(list(range(1, 9)), [], 1, forbidden=[(1, 5)], absent=[8])
    assert (1, 5) not in plan.tables and 8 not in {p for t in plan.tables for p in t} | set(plan.byes)
    assert len(plan.byes) == 1


@settings(max_examples=30, deadline=None)
@given(count=st.integers(2, 40), rounds=st.integers(1, 6), data=st.data())
def test_the_fallback_is_a_legal_round(count, rounds, data):
    players = list(range(count))
    results: list[Result] = []
    for r in range(1, rounds + 1):
        field = entrants(players, results)
        made = dutch.fallback(field)
        seated = [p for t in made.pairs for p in t] + ([made.bye] if made.bye is not None else [])
        assert sorted(seated) == players
        if made.bye is not None and any(not e.had_bye for e in field):
            assert not next(e for e in field if e.id == made.bye).had_bye
        met = {e.id: e.opponents for e in field}
        if "rematch" not in made.relaxed:
            assert not any(b in met[a] for a, b in made.pairs)
        for p in [made.bye] if made.bye is not None else []:
            results.append(Result(r, (p,), (1,)))
        for t in made.pairs:
            results.append(Result(r, t, data.draw(outcomes)))


def test_a_spent_budget_falls_back():
    plan = plan_round(list(range(40)), [], 1, budget=-1)
    assert plan.method == "fallback" and len(plan.tables) == 20


# -- tables of 3-6 -----------------------------------------------------------------------------------------

def test_table_sizes():
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(5, 2) == [2, 2, 1]
    assert table_sizes(7, 3, 3) == [3, 3, 1], "no table below the game's minimum: a bye instead"
    assert table_sizes(4, 6, 3) == [4]


@settings(max_examples=40, deadline=None)
@given(count=st.integers(3, 30), size=st.integers(3, 6), smallest=st.integers(2, 3), rounds=st.integers(1, 6),
       data=st.data())
def test_tables_of_n_are_grouped_by_score_and_share_seats(count, size, smallest, rounds, data):
    players = list(range(count))
    results: list[Result] = []
    byes: Counter = Counter()
    for r in range(1, rounds + 1):
        table = standings(players, results)
        rank = {row.player: i for i, row in enumerate(table)}
        plan = plan_round(players, results, r, table_size=size, min_table=smallest)
        assert sorted([p for t in plan.tables for p in t] + plan.byes) == players
        assert all(smallest <= len(t) <= size for t in plan.tables)
        if plan.tables:
            assert max(len(t) for t in plan.tables) - min(len(t) for t in plan.tables) <= 1
        firsts = [min(rank[p] for p in t) for t in plan.tables]
        assert firsts == sorted(firsts), "the tables go down the ranking"
        for p in plan.byes:
            if any(byes[q] == 0 for q in players if q not in plan.byes):
                assert byes[p] == 0
            byes[p] += 1
            results.append(Result(r, (p,), (1,)))
        for t in plan.tables:
            results.append(Result(r, t, tuple(data.draw(st.permutations(range(1, len(t) + 1))))))
    if rounds >= size and count % size == 0:
        seat0 = Counter(t.players[0] for t in results if not t.bye)
        assert max(seat0.values()) - min(seat0.get(p, 0) for p in players) <= 2


def test_tables_spread_rematches():
    ranked = standings(list(range(6)), [Result(1, (0, 1, 2), (1, 2, 3)), Result(1, (3, 4, 5), (1, 2, 3))])
    seated, byes = tables(ranked, 3)
    assert not byes
    for t in seated:
        assert len({p // 3 for p in t}) > 1, "nobody sits with both of last round's table mates"


# -- elimination ------------------------------------------------------------------------------------------

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


# -- Berger tables ----------------------------------------------------------------------------------------

def test_berger_table_of_six_is_fides():
    # FIDE Handbook C.05, annex 1, the table for 5 or 6 players
    assert berger_numbers(6) == [[(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)], [(2, 6), (3, 1), (4, 5)],
                                 [(6, 5), (1, 4), (2, 3)], [(3, 6), (4, 2), (5, 1)]]


@given(count=st.integers(2, 24), double=st.booleans())
def test_berger_tables_meet_everybody_once_with_balanced_seats(count, double):
    rounds = berger(list(range(count)), double=double)
    assert len(rounds) == (count - 1 + count % 2) * (2 if double else 1)
    meetings = Counter()
    first = Counter()
    history: dict[int, list[int]] = {p: [] for p in range(count)}
    for tables_ in rounds:
        seen = [p for t in tables_ for p in t]
        assert sorted(seen) == list(range(count))
        for t in tables_:
            if len(t) == 2:
                meetings[frozenset(t)] += 1
                first[t[0]] += 1
                history[t[0]].append(0)
                history[t[1]].append(1)
    assert set(meetings.values()) == {2 if double else 1}
    assert len(meetings) == count * (count - 1) // 2
    games = (count - 1) * (2 if double else 1)
    for p in range(count):
        assert abs(2 * first[p] - games) <= (0 if double or count % 2 else 1)
        seats = history[p][:count - 1 + count % 2]
        assert not any(seats[i] == seats[i + 1] == seats[i + 2] for i in range(len(seats) - 2)), \
            "the same seat at most twice running"


@pytest.mark.parametrize("count", [3, 5, 7])
def test_a_league_of_an_odd_size_shares_the_first_seat(count):
    from tournaments.league import round_robin
    firsts = Counter(a for a, _ in round_robin(list(range(count))))
    assert all(firsts[p] == (count - 1) // 2 for p in range(count))
