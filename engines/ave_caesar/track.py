"""Ave Caesar tracks: loaded from ``data/ave_caesar/track_<x>.json`` and indexed per race direction.

A track is a directed graph of spaces (links point clockwise; counter-clockwise races use them reversed), a
finish line (the set of links between its two columns), two start grids, Caesar's alley with its access space
and its gate (the main-track column just beyond the alley mouth), bottleneck spaces and drawing data.

Tracks are versioned: ``TRACK_VERSION`` is the layout new games race on (``track_<x>.json``); a game keeps the
layout it began with (rules version 1 raced ``track_<x>.v1.json``, which had sideways links and a middle lane
as cheap as the inner one on track A), see ``track_version``.
"""

from __future__ import annotations

import json
from collections import deque
from functools import cached_property, lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data" / "ave_caesar"
DIRECTIONS = ("cw", "ccw")
TRACK_NAMES = ("A", "B")
TRACK_VERSION = 2
TRACK_VERSIONS = (1, 2)
MAX_STEPS = 6  # the longest move (a 6)


def track_version(rules_version: int | None) -> int:
    """The track layout of a game saved under ``rules_version`` (1 -> the v1 files, later ones the current)."""
    return 1 if rules_version == 1 else TRACK_VERSION


class Track:
    """One track in one direction: adjacency, line crossings, distances to the line."""

    def __init__(self, data: dict, direction: str, version: int = TRACK_VERSION) -> None:
        if direction not in DIRECTIONS:
            raise ValueError(f"unknown direction {direction!r}")
        self.data = data
        self.version = version
        self.name: str = data["name"]
        self.title: str = data["title"]
        self.direction = direction
        self.route: int = data["route"]
        self.curve_penalty: int = data["curve_penalty"]
        self.spaces: dict[str, dict] = {sp["id"]: sp for sp in data["spaces"]}
        self.order: list[str] = [sp["id"] for sp in data["spaces"]]
        rank = {sid: i for i, sid in enumerate(self.order)}
        cw = {sid: list(sp["next"]) for sid, sp in self.spaces.items()}
        if direction == "cw":
            self.next = cw
        else:
            rev: dict[str, list[str]] = {sid: [] for sid in self.order}
            for sid in self.order:
                for n in cw[sid]:
                    rev[n].append(sid)
            # straight ahead first, then the diagonals: same preference as clockwise
            for sid, lst in rev.items():
                lane: int = self.spaces[sid]["lane"]

                def ahead_first(n: str, lane: int = lane) -> tuple[bool, int]:
                    return self.spaces[n]["lane"] != lane, rank[n]

                lst.sort(key=ahead_first)
            self.next = rev
        self.prev: dict[str, list[str]] = {sid: [] for sid in self.order}
        for sid in self.order:
            for n in self.next[sid]:
                self.prev[n].append(sid)
        before, after = set(data["line"]["before"]), set(data["line"]["after"])
        self._line_from, self._line_to = (before, after) if direction == "cw" else (after, before)
        self.start: list[str] = list(data["start"][direction])
        alley = data["alley"]
        self.alley: list[str] = list(alley["spaces"]) if direction == "cw" else list(reversed(alley["spaces"]))
        self.alley_set = frozenset(self.alley)
        self.alley_access: str = alley["access"][direction]
        self.alley_entry: str = self.alley[0]
        self.gate = frozenset(alley["gate"][direction])
        self.bottlenecks = frozenset(data["bottlenecks"])
        self.to_line = self._distances_to_line()
        self.alley_reach = self._reaching_alley()
        self.via_alley = self._distances_via_alley()
        self.lap = min(self.to_line[s] for s in self._line_to)
        #: space -> (in the alley, [(next space, it is in the alley, 1 if the step crosses the line)]):
        #: the move search reads these instead of asking per step
        self.links: dict[str, tuple[bool, list[tuple[str, bool, int]]]] = {
            s: (s in self.alley_set, [(n, n in self.alley_set, int(self.crosses(s, n))) for n in self.next[s]])
            for s in self.order}
        # what stopping in Caesar's alley adds to the shortest route (the start step and three laps aside)
        self.detour = self.route - 1 - 3 * self.lap
        #: the move search's steps, space -> next spaces: ``ahead_in`` for a chariot that starts its move in
        #: the alley (it may drive out), ``ahead_out`` for one that starts outside (a chariot that drives into
        #: the alley must stop there, so no step leads out of it)
        self.ahead_in: dict[str, list[str]] = {s: [n for n, _, _ in ahead] for s, (_, ahead) in self.links.items()}
        self.ahead_out: dict[str, list[str]] = {
            s: [n for n, there, _ in ahead if there or not here] for s, (here, ahead) in self.links.items()}
        #: the destination order's tie-break (lane, then space id) as one number per space
        self.tiebreak: dict[str, int] = {
            s: i for i, s in enumerate(sorted(self.order, key=lambda s: (self.spaces[s]["lane"], s)))}
        #: (start, the one occupied space a move could reach) -> the move search's layers (the engine fills it)
        self.blocked_layers: dict[tuple[str, str], list[dict[str, str]]] = {}

    @cached_property
    def _move_tables(self) -> tuple:
        """The move search's tables (see ``crossed``, ``move_keys``, ``free_layers``, ``first_step``): built on
        first use, so that a broken track can still be loaded and reported on by the validator."""
        #: start space -> {space a move of up to MAX_STEPS steps reaches: its line crossings on the way}
        self._crossed = self._short_moves()
        #: start space -> {end space: (to_line - lap * line crossings, the destination sort key without the
        #: laps still to drive)}: the move listing's arithmetic, done once (see AveCaesarEngine._turn)
        self._move_keys: dict[str, dict[str, tuple[int, int]]] = {}
        tiebreak = {s: i for i, s in enumerate(sorted(self.order, key=lambda s: (self.spaces[s]["lane"], s)))}
        for start, ends in self._crossed.items():
            if any(crossed > 1 for crossed in ends.values()):
                raise ValueError(f"track {self.name}: a move from {start} crosses the line twice")
            rems = {to: self.to_line[to] - self.lap * crossed for to, crossed in ends.items()}
            self._move_keys[start] = {to: (rem, tiebreak[to] - rem * 4096) for to, rem in rems.items()}
        #: start space -> the move search's layers on an empty track (each: space -> the space before it),
        #: and the first step at which each space turns up in them; see ``AveCaesarEngine._layers``
        self._free_layers: dict[str, list[dict[str, str]]] = {}
        self._first_step: dict[str, dict[str, int]] = {}
        for start in self.order:
            ahead = self.ahead_in if start in self.alley_set else self.ahead_out
            layers: list[dict[str, str]] = []
            first: dict[str, int] = {}
            layer: dict | tuple = (start,)
            for step in range(1, MAX_STEPS + 1):
                new: dict[str, str] = {}
                for space in layer:
                    for nxt in ahead[space]:
                        if nxt not in new:
                            new[nxt] = space
                            first.setdefault(nxt, step)
                if not new:
                    break
                layers.append(new)
                layer = new
            self._free_layers[start] = layers
            self._first_step[start] = first
        return self._crossed, self._move_keys, self._free_layers, self._first_step

    @cached_property
    def crossed(self) -> dict[str, dict[str, int]]:
        """start space -> {space a move of up to MAX_STEPS steps reaches: its line crossings on the way}."""
        return self._move_tables[0]

    @cached_property
    def move_rank(self) -> dict[str, dict[str, int]]:
        """start space -> {end space: its destination sort key without the laps still to drive} (the second
        half of ``move_keys``): one card's destinations from a start sort by it."""
        return {start: {to: key for to, (_, key) in ends.items()} for start, ends in self.move_keys.items()}

    @cached_property
    def final_rank(self) -> dict[str, dict[str, int]]:
        """``move_rank`` for a chariot in its last lap: a move that crosses the line finishes (nothing remains
        to drive), so it sorts after every other destination, by its tie-break alone."""
        tiebreak = self.tiebreak
        return {start: {to: tiebreak[to] if self.crossed[start][to] else key for to, key in ends.items()}
                for start, ends in self.move_rank.items()}

    @cached_property
    def free_order(self) -> dict[str, list[list[str]]]:
        """start space -> for each step count, the spaces of ``free_layers`` in ``move_rank`` order."""
        return {start: [sorted(layer, key=self.move_rank[start].__getitem__) for layer in layers]
                for start, layers in self.free_layers.items()}

    @cached_property
    def free_final_order(self) -> dict[str, list[list[str]]]:
        """As ``free_order``, in ``final_rank`` order (the last lap)."""
        return {start: [sorted(layer, key=self.final_rank[start].__getitem__) for layer in layers]
                for start, layers in self.free_layers.items()}

    @cached_property
    def move_keys(self) -> dict[str, dict[str, tuple[int, int]]]:
        """start space -> {end space: (to_line - lap * line crossings, destination sort key without laps)}."""
        return self._move_tables[1]

    @cached_property
    def free_layers(self) -> dict[str, list[dict[str, str]]]:
        """start space -> the move search's layers on an empty track."""
        return self._move_tables[2]

    @cached_property
    def first_step(self) -> dict[str, dict[str, int]]:
        """start space -> {space: the first step at which it turns up in ``free_layers``}."""
        return self._move_tables[3]

    def _short_moves(self) -> dict[str, dict[str, int]]:
        """The line crossings of every move of up to MAX_STEPS steps, by start and end space. It also checks
        what lets the move search key a partial move by its space alone: after a given number of steps from
        a given start, each space is reached one way only as far as the rules care (one count of line
        crossings, and "drove into the alley" exactly when it lies in the alley and the move began outside)."""
        out: dict[str, dict[str, int]] = {}
        for start in self.order:
            inside = start in self.alley_set
            layer = {(start, 0, False)}
            counts: dict[str, int] = {}
            for _ in range(MAX_STEPS):
                new = set()
                for space, crossed, entered in layer:
                    here, ahead = self.links[space]
                    for nxt, there, crossing in ahead:
                        if here and not there and entered:
                            continue  # a chariot that drives into the alley must stop there
                        new.add((nxt, crossed + crossing, entered or (there and not here)))
                if len({key[0] for key in new}) != len(new):
                    raise ValueError(f"track {self.name}: moves from {start} reach a space in two ways")
                for space, crossed, entered in new:
                    if entered != (not inside and space in self.alley_set) or counts.setdefault(space, crossed) != crossed:
                        raise ValueError(f"track {self.name}: moves from {start} reach {space} in two ways")
                layer = new
            out[start] = counts
        return out

    def crosses(self, a: str, b: str) -> bool:
        """Does the step a -> b cross the finish line (in this direction)?"""
        return a in self._line_from and b in self._line_to

    def _reaching_alley(self) -> frozenset[str]:
        """Spaces from which Caesar's alley can still be entered before the next line crossing (the alley's
        own spaces included): an unpaid chariot in lap 2 anywhere else can no longer pay."""
        seen = set(self.alley)
        queue: deque[str] = deque([self.alley_entry])
        while queue:
            cur = queue.popleft()
            for p in self.prev[cur]:
                if p not in seen and not self.crosses(p, cur):
                    seen.add(p)
                    queue.append(p)
        return frozenset(seen)

    def _distances_via_alley(self) -> dict[str, int]:
        """Fewest steps from each space of ``alley_reach`` to the line crossing, through Caesar's alley."""
        dist: dict[str, int] = {s: self.to_line[s] for s in self.alley}
        pending = [s for s in self.order if s in self.alley_reach and s not in dist]
        while pending:  # within a lap the links form no cycle: settle spaces once all their successors are
            rest = []
            for s in pending:
                ahead = [n for n in self.next[s] if n in self.alley_reach and not self.crosses(s, n)]
                if all(n in dist for n in ahead):
                    dist[s] = 1 + min(dist[n] for n in ahead)
                else:
                    rest.append(s)
            if len(rest) == len(pending):
                raise ValueError("the spaces before the alley form a cycle")
            pending = rest
        return dist

    def remaining_due(self, space: str, crossings: int, laps: int = 3) -> int:
        """Shortest distance to the finish for a chariot that still has to stop in Caesar's alley (in lap 1 or
        2); the plain ``remaining`` once the alley is out of reach (it can no longer pay)."""
        plain = self.remaining(space, crossings, laps)
        if not self.alley_reachable(space, crossings):
            return plain
        rest = max(0, laps - crossings) * self.lap
        best = self.via_alley[space] + rest if space in self.via_alley and crossings >= 1 else None
        if crossings < 2:  # or on the next lap, from the line
            later = plain + self.detour
            best = later if best is None else min(best, later)
        return plain if best is None else best

    def alley_reachable(self, space: str, crossings: int) -> bool:
        """Can a chariot on ``space`` after ``crossings`` line crossings still stop in the alley by the end of
        lap 2? (Always in lap 1; in lap 2 only before the alley; never later.)"""
        if crossings < 2:
            return True
        return crossings == 2 and space in self.alley_reach

    def _distances_to_line(self) -> dict[str, int]:
        """Fewest steps from each space until the step that crosses the line (inclusive)."""
        dist: dict[str, int] = {}
        queue: deque[str] = deque()
        for a in self._line_from:
            if any(self.crosses(a, b) for b in self.next[a]):
                dist[a] = 1
                queue.append(a)
        while queue:
            cur = queue.popleft()
            for p in self.prev[cur]:
                if p not in dist and not self.crosses(p, cur):
                    dist[p] = dist[cur] + 1
                    queue.append(p)
        return dist

    def remaining(self, space: str, crossings: int, laps: int = 3) -> int:
        """Shortest distance to the finish from ``space`` after ``crossings`` line crossings (the start grid
        lies behind the line: the first crossing starts lap 1, the fourth ends lap 3)."""
        return self.to_line[space] + max(0, laps - crossings) * self.lap


def data_file(name: str, version: int = TRACK_VERSION) -> Path:
    """The JSON file of track ``name`` in layout ``version``."""
    if name not in TRACK_NAMES:
        raise ValueError(f"unknown track {name!r}")
    if version not in TRACK_VERSIONS:
        raise ValueError(f"unknown track version {version!r}")
    suffix = "" if version == TRACK_VERSION else f".v{version}"
    return DATA / f"track_{name.lower()}{suffix}.json"


@lru_cache(maxsize=8)
def load_data(name: str, version: int = TRACK_VERSION) -> dict:
    return json.loads(data_file(name, version).read_text())


@lru_cache(maxsize=16)
def get_track(name: str, direction: str = "cw", version: int = TRACK_VERSION) -> Track:
    """The (cached, read-only) track ``name`` raced in ``direction``, in layout ``version``."""
    return Track(load_data(name, version), direction, version)
