"""HEX-TRI board geometry: the trihexagonal graph of HEX and TRI fields, their names, values and
coordinates for a board of radius 2..5.

Construction (the digest's decision): HEXes sit on the axial lattice points (q, r) with
max(|q|, |r|, |q + r|) <= R; every triangle of that lattice with at least one board HEX as a corner is a TRI
touching exactly those HEXes. Every lattice triangle is either directly above its lowest corner (``N``) or
directly below its highest corner (``S``), which gives each TRI one unique key.

Names (typed by players and printed on the image):
- HEX rows are lettered A.. from the top, HEXes numbered 1.. from the left: ``H-D4`` is the centre at R = 3.
- TRIs lie in horizontal strips between HEX rows; a strip takes the letter of the HEX row just below it (the
  strip under the last row takes the next letter), TRIs numbered 1.. from the left: ``T-A1`` is the top-left
  TRI. :func:`Board.parse` accepts any case, spaces or no hyphen (``h d4``, ``hd4``, ``hex d4``).

Coordinates are in units of the HEX circumradius ``s`` (= the TRI side), y pointing down, origin at the
centre HEX; the renderer scales them.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

SQRT3 = math.sqrt(3.0)
HEX = "hex"
TRI = "tri"
MIN_RADIUS, MAX_RADIUS = 2, 5


def _lattice_xy(q: int, r: int) -> tuple[float, float]:
    # neighbouring HEX centres are 2s apart (they touch at one corner)
    return 2.0 * (q + r / 2.0), SQRT3 * r


class Board:
    """Immutable graph of one board radius; build it with :func:`board` (cached)."""

    def __init__(self, radius: int) -> None:
        if not MIN_RADIUS <= radius <= MAX_RADIUS:
            raise ValueError(f"board radius must be {MIN_RADIUS}..{MAX_RADIUS}")
        self.radius = radius
        R = radius
        on_board = {(q, r) for q in range(-R, R + 1) for r in range(-R, R + 1) if abs(q + r) <= R}
        rows = list(range(-R, R + 1))
        self.row_letters = [chr(ord("A") + i) for i in range(len(rows) + 1)]

        self.kind: dict[str, str] = {}
        self.value: dict[str, int] = {}          # HEX value, 1 on the outer ring .. R + 1 in the centre
        self.touch: dict[str, int] = {}          # TRI: number of HEXes it touches (1..3)
        self.xy: dict[str, tuple[float, float]] = {}
        self.polygon: dict[str, list[tuple[float, float]]] = {}
        self.coord: dict[str, tuple] = {}        # HEX: (q, r); TRI: ("N" | "S", q, r)
        self.adj: dict[str, list[str]] = {}
        hex_name = self._place_hexes(rows, on_board)
        tri_hexes = self._place_tris(on_board, hex_name)
        self._link(tri_hexes)

    def _place_hexes(self, rows: list[int], on_board: set[tuple[int, int]]) -> dict[tuple[int, int], str]:
        """The HEX fields, named row by row; returns their names by lattice corner."""
        R = self.radius
        hex_name: dict[tuple[int, int], str] = {}
        self.hexes: list[str] = []
        for i, r in enumerate(rows):
            qs = sorted(q for q in range(-R, R + 1) if (q, r) in on_board)
            for j, q in enumerate(qs):
                name = f"H-{self.row_letters[i]}{j + 1}"
                hex_name[(q, r)] = name
                self.hexes.append(name)
                self.kind[name] = HEX
                self.value[name] = R + 1 - max(abs(q), abs(r), abs(q + r))
                self.coord[name] = (q, r)
                cx, cy = _lattice_xy(q, r)
                self.xy[name] = (cx, cy)
                self.polygon[name] = [(cx + math.cos(math.radians(a)), cy + math.sin(math.radians(a)))
                                      for a in range(0, 360, 60)]
        return hex_name

    def _place_tris(self, on_board: set[tuple[int, int]],
                    hex_name: dict[tuple[int, int], str]) -> dict[str, list[str]]:
        """The TRI fields (every lattice triangle with a corner on the board), named strip by strip; returns
        the HEXes each touches."""
        R = self.radius
        # every lattice triangle, keyed by the corner it is directly above (N) or below (S)
        triangles: dict[tuple, list[tuple[int, int]]] = {}
        for q in range(-R - 2, R + 3):
            for r in range(-R - 2, R + 3):
                # y grows downwards: row r - 1 is above row r
                triangles[("N", q, r)] = [(q, r), (q, r - 1), (q + 1, r - 1)]
                triangles[("S", q, r)] = [(q, r), (q - 1, r + 1), (q, r + 1)]
        strips: dict[int, list[tuple]] = {}
        for key, corners in triangles.items():
            inside = [c for c in corners if c in on_board]
            if not inside:
                continue
            pts = [_lattice_xy(*c) for c in corners]
            cx = sum(p[0] for p in pts) / 3.0
            cy = sum(p[1] for p in pts) / 3.0
            strip = key[2] if key[0] == "N" else key[2] + 1   # the HEX row just below the strip
            strips.setdefault(strip, []).append((cx, key, cy, corners, inside, pts))
        self.tris: list[str] = []
        tri_hexes: dict[str, list[str]] = {}
        for strip in sorted(strips):
            letter = self.row_letters[strip + R]
            for j, (cx, key, cy, _corners, inside, pts) in enumerate(sorted(strips[strip], key=lambda t: t[0])):
                name = f"T-{letter}{j + 1}"
                self.tris.append(name)
                self.kind[name] = TRI
                self.touch[name] = len(inside)
                self.coord[name] = key
                self.xy[name] = (cx, cy)
                # the TRI tile is the medial triangle of its lattice triangle: its corners are where HEXes meet
                self.polygon[name] = [((pts[a][0] + pts[b][0]) / 2.0, (pts[a][1] + pts[b][1]) / 2.0)
                                      for a, b in ((0, 1), (1, 2), (2, 0))]
                tri_hexes[name] = sorted(hex_name[c] for c in inside)
        return tri_hexes

    def _link(self, tri_hexes: dict[str, list[str]]) -> None:
        """Adjacency (a TRI and the HEXes it touches), field order, entry fields, rim and bounds."""
        self.fields: list[str] = self.hexes + self.tris
        for name in self.fields:
            self.adj[name] = []
        for t, hs in tri_hexes.items():
            for h in hs:
                self.adj[t].append(h)
                self.adj[h].append(t)
        order = {name: i for i, name in enumerate(self.fields)}
        for name in self.fields:
            self.adj[name].sort(key=order.__getitem__)
        self.order = order
        self.outer: list[str] = [t for t in self.tris if self.touch[t] == 1]     # entry fields
        self.outer_set: frozenset[str] = frozenset(self.outer)
        self.rim: frozenset[str] = frozenset(t for t in self.tris if self.touch[t] < 3)  # touch the outside
        xs = [p[0] for poly in self.polygon.values() for p in poly]
        ys = [p[1] for poly in self.polygon.values() for p in poly]
        self.bounds = (min(xs), min(ys), max(xs), max(ys))

    def parse(self, text: object) -> str:
        """The canonical name of a typed field (``"h-c4"``, ``"T B3"``, ``"hex c4"``); ValueError if none."""
        if not isinstance(text, str):
            raise ValueError("A field name is text such as H-D4 or T-C5.")
        cleaned = text.strip().upper()
        m = re.fullmatch(r"(HEX|TRI|H|T)?[\s\-_]*([A-Z])\s*-?\s*(\d{1,2})", cleaned)
        if not m:
            raise ValueError(f"'{text.strip()}' is not a field name: write H-D4 for a hexagon or T-C5 for a "
                             f"triangle.")
        prefix, letter, number = m.group(1), m.group(2), int(m.group(3))
        if prefix is None:
            hexname, triname = f"H-{letter}{number}", f"T-{letter}{number}"
            if hexname in self.kind and triname in self.kind:
                raise ValueError(f"Say {hexname} for the hexagon or {triname} for the triangle.")
            if hexname in self.kind:
                return hexname
            if triname in self.kind:
                return triname
            raise ValueError(f"There is no field {letter}{number} on this board.")
        name = f"{prefix[0]}-{letter}{number}"
        if name not in self.kind:
            raise ValueError(f"There is no field {name} on this board.")
        return name


@lru_cache(maxsize=8)
def board(radius: int) -> Board:
    """The (cached) board of ``radius``."""
    return Board(radius)
