"""Track validator: ``python -m engines.ave_caesar.validate`` checks both tracks in both directions.

Proves for each track (and the test suite runs the same checks): ids and links are sound, the main track is one
connected loop cut exactly once by the finish line, every space is reachable from every start space and leads
back to the line, the shortest 3-lap route from start space I with a stop in Caesar's alley equals the track's
figure (80 on A, 78 on B), every lane change is diagonal (forward, never to the space beside), in every curve
the inner lane is the cheapest and each lane further out costs more, the outer lane exactly the track's penalty
more than the inner one (+2) so that a chariot driven outside on every curve cannot finish with its 84 points, the
alley is a one-lane side lane with one way in and one way out that no lap can avoid except through its gate,
and every bottleneck is a single space all traffic must pass.
"""

from __future__ import annotations

import sys
from collections import deque

from engines.ave_caesar.track import DIRECTIONS, TRACK_NAMES, Track, get_track, load_data

DECK_POINTS = 84  # 4 x (1+2+3+4+5+6)
LAPS = 3


def shortest_route(track: Track, start: str, need_alley: bool = True, forbidden: frozenset = frozenset()) -> int:
    """Fewest spaces from ``start`` to the fourth line crossing (the start crossing plus three laps), passing
    through Caesar's alley in lap 1 or 2 when ``need_alley``; spaces in ``forbidden`` may not be used."""
    # state: (space, crossings, alley visited)
    begin = (start, 0, not need_alley)
    dist = {begin: 0}
    queue = deque([begin])
    while queue:
        state = queue.popleft()
        space, crossings, paid = state
        for nxt in track.next[space]:
            if nxt in forbidden:
                continue
            c = crossings + (1 if track.crosses(space, nxt) else 0)
            if c == LAPS + 1:
                if paid:
                    return dist[state] + 1
                continue
            p = paid or (nxt in track.alley_set and c in (1, 2))
            if c == LAPS and not p:
                continue
            new = (nxt, c, p)
            if new not in dist:
                dist[new] = dist[state] + 1
                queue.append(new)
    return -1


def _reachable(track: Track, sources, blocked=frozenset(), stop_at_line=False) -> set[str]:
    seen = set()
    queue = deque(s for s in sources)
    while queue:
        cur = queue.popleft()
        for nxt in track.next[cur]:
            if nxt in blocked or nxt in seen:
                continue
            if stop_at_line and track.crosses(cur, nxt):
                continue
            seen.add(nxt)
            queue.append(nxt)
    return seen


def _is_acyclic_without_line(track: Track) -> bool:
    indeg = {s: 0 for s in track.order}
    for s in track.order:
        for n in track.next[s]:
            if not track.crosses(s, n):
                indeg[n] += 1
    queue = deque(s for s, d in indeg.items() if d == 0)
    done = 0
    while queue:
        s = queue.popleft()
        done += 1
        for n in track.next[s]:
            if not track.crosses(s, n):
                indeg[n] -= 1
                if indeg[n] == 0:
                    queue.append(n)
    return done == len(indeg)


def _beside(target_start: float, start: float) -> bool:
    delta = (target_start - start) % 4.0
    return delta < 1e-6 or delta > 2.0


def sideways_links(data: dict) -> list[str]:
    """Links into a neighbouring lane that lead to the space beside rather than diagonally forward: the
    target begins where the source begins or further back (``span``: each space's stretch of the lap, in
    sections: 0-1 top straight, 1-2 east curve, 2-3 bottom straight, 3-4 west curve)."""
    spaces = {sp["id"]: sp for sp in data["spaces"]}
    problems = []
    for sp in data["spaces"]:
        if "span" not in sp:
            problems.append(f"space {sp['id']} lacks span")
            continue
        for n in sp["next"]:
            other = spaces[n]
            if "span" in other and other["lane"] != sp["lane"] and _beside(other["span"][0], sp["span"][0]):
                problems.append(f"{sp['id']} -> {n} is a sideways link (the space beside it, not diagonally ahead)")
    return problems


def _shape(track: Track, data: dict) -> list[str]:
    """Unique ids, the fields every space needs, links to known spaces."""
    problems = []
    ids = [sp["id"] for sp in data["spaces"]]
    if len(ids) != len(set(ids)):
        problems.append("duplicate space ids")
    for sp in data["spaces"]:
        for key in ("x", "y", "poly", "lane", "next"):
            if key not in sp:
                problems.append(f"space {sp['id']} lacks {key}")
        for n in sp["next"]:
            if n not in track.spaces:
                problems.append(f"space {sp['id']} links to unknown {n}")
    return problems


def _loop(track: Track, problems: list[str], figures: dict) -> None:
    """One connected loop; the start grid behind the line, every space reachable, no dead ends."""
    main = [s for s in track.order if s not in track.alley_set]
    for s in main:
        missing = set(main) - _reachable(track, [s])
        if missing:
            problems.append(f"{s} cannot reach {sorted(missing)[:3]}: the main track is not one loop")
            break
    if not _is_acyclic_without_line(track):
        problems.append("a lap can be driven without crossing the finish line")
    if len(set(track.start)) != 6 or any(s in track.alley_set for s in track.start):
        problems.append("the start grid needs six distinct main-track spaces")
    figures["grid_distance_to_line"] = [track.to_line.get(s) for s in track.start]
    if [track.to_line.get(s) for s in track.start] != [1, 1, 1, 2, 2, 2]:
        problems.append("start spaces I-III must touch the line and IV-VI be one row behind")
    for s in track.start:
        unreachable = set(track.order) - _reachable(track, [s]) - {s}
        if unreachable:
            problems.append(f"from start {s} these cannot be reached: {sorted(unreachable)[:5]}")
    dead = [s for s in track.order if s not in track.to_line]
    if dead:
        problems.append(f"no way to the line from {dead[:5]}")
    if any(not track.next[s] for s in track.order):
        problems.append("a space has no forward link")


def _routes(track: Track, problems: list[str], figures: dict) -> None:
    """Route lengths: three laps with the alley, without it, and what the deck leaves spare."""
    route = shortest_route(track, track.start[0])
    plain = shortest_route(track, track.start[0], need_alley=False)
    figures.update(lap=track.lap, route=route, route_without_alley=plain, alley_detour=route - plain)
    if route != track.route:
        problems.append(f"shortest 3-lap route with the alley is {route}, expected {track.route}")
    if plain != 1 + LAPS * track.lap:
        problems.append("the route without the alley should be the start step plus three inner laps")
    if not 0 < DECK_POINTS - route <= 6:
        problems.append(f"{DECK_POINTS} points leave {DECK_POINTS - route} spare: the deck must be barely enough")


def _curve(track: Track, curve: dict, problems: list[str]) -> dict:
    """One curve's lanes: consecutive spaces, the outer lane costing the penalty, each lane out dearer."""
    lanes = [curve["inner"], curve["middle"], curve["outer"]]
    for lane in lanes:
        for a, b in zip(lane, lane[1:]):
            if b not in track.next[a] and a not in track.next[b]:
                problems.append(f"curve {curve['name']}: {a} and {b} are not consecutive")
    extra = len(curve["outer"]) - len(curve["inner"])
    if extra != track.curve_penalty:
        problems.append(f"curve {curve['name']}: outer lane costs +{extra}, expected +{track.curve_penalty}")
    if not len(curve["inner"]) < len(curve["middle"]) < len(curve["outer"]):
        problems.append(f"curve {curve['name']}: the inner lane must be the cheapest and each lane further "
                        f"out cost more ({len(curve['inner'])}/{len(curve['middle'])}/{len(curve['outer'])})")
    return {"name": curve["name"], "inner": len(curve["inner"]), "middle": len(curve["middle"]),
            "outer": len(curve["outer"])}


def _curves(track: Track, data: dict, problems: list[str], figures: dict) -> None:
    """Curves: the outer lane costs the penalty, the inner lane is the shortest way round."""
    figures["curves"] = []
    outside_only: set[str] = set()
    for curve in data["curves"]:
        figures["curves"].append(_curve(track, curve, problems))
        outside_only |= set(curve["inner"]) | set(curve["middle"])
    route, plain = figures["route"], figures["route_without_alley"]
    # (measured without the alley: on B the alley rejoins the inner lane right before a curve)
    forced_out = shortest_route(track, track.start[0], need_alley=False, forbidden=frozenset(outside_only))
    figures["route_outside_on_every_curve"] = forced_out + (route - plain)
    if forced_out != plain + 2 * LAPS * track.curve_penalty:
        problems.append(f"driving every curve outside costs {forced_out}, expected the inner route + 6 x penalty")
    if forced_out + (route - plain) <= DECK_POINTS:
        problems.append("a chariot driven outside on every curve could still finish")


def _alley(track: Track, problems: list[str], figures: dict) -> None:
    """Caesar's alley: a one-lane side lane with a single way in and out, beyond its gate."""
    alley = track.alley
    if track.prev[alley[0]] != [track.alley_access]:
        problems.append("the alley must be entered only from its access space")
    for a, b in zip(alley, alley[1:]):
        if track.next[a] != [b] or track.prev[b] != [a]:
            problems.append("the alley must be a single lane without side exits")
    exit_links = track.next[alley[-1]]
    if len(exit_links) != 1 or exit_links[0] in track.alley_set:
        problems.append("the alley must rejoin the track through one exit")
    if track.alley_access in track.alley_set or track.alley_access in track.gate:
        problems.append("the access space must lie on the main track before the gate")
    beyond = _reachable(track, [track.alley_access], blocked=track.gate | track.alley_set, stop_at_line=True)
    if exit_links and exit_links[0] in beyond:
        problems.append("the gate does not close the main track beside the alley")
    if not set(track.next[track.alley_access]) & track.gate:
        problems.append("the gate must be the column right after the access space")
    figures["alley_spaces"] = len(alley)


def _bottlenecks(track: Track, problems: list[str], figures: dict) -> None:
    """Bottlenecks: one space every lap must pass."""
    figures["bottlenecks"] = sorted(track.bottlenecks)
    for b in track.bottlenecks:
        after_line = [s for s in track.order if track.to_line.get(s) == track.lap and s not in track.alley_set]
        passed = _reachable(track, after_line, blocked=frozenset({b}), stop_at_line=True)
        if any(track.crosses(s, n) for s in passed for n in track.next[s]):
            problems.append(f"bottleneck {b} can be driven around")


def check(name: str, direction: str) -> tuple[list[str], dict]:
    """All checks for one track and direction: (problems, figures)."""
    track = get_track(name, direction)
    data = load_data(name)
    figures: dict = {"track": name, "direction": direction}
    problems = _shape(track, data)
    if problems:
        return problems, figures
    problems += sideways_links(data)
    _loop(track, problems, figures)
    _routes(track, problems, figures)
    _curves(track, data, problems, figures)
    _alley(track, problems, figures)
    _bottlenecks(track, problems, figures)
    return problems, figures


def check_all() -> tuple[list[str], list[dict]]:
    problems: list[str] = []
    reports: list[dict] = []
    for name in TRACK_NAMES:
        for direction in DIRECTIONS:
            p, figures = check(name, direction)
            problems += [f"track {name} {direction}: {msg}" for msg in p]
            reports.append(figures)
    return problems, reports


def main() -> int:
    problems, reports = check_all()
    for r in reports:
        curves = ", ".join(f"{c['name']} {c['inner']}/{c['middle']}/{c['outer']}" for c in r.get("curves", []))
        print(f"track {r['track']} {r['direction']:>3}: lap {r.get('lap')}, 3 laps + alley {r.get('route')} "
              f"(alley detour +{r.get('alley_detour')}), every curve outside {r.get('route_outside_on_every_curve')}, "
              f"curves inner/middle/outer: {curves}, bottlenecks {len(r.get('bottlenecks', []))}")
    if problems:
        for p in problems:
            print("PROBLEM:", p)
        return 1
    print("all tracks valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
