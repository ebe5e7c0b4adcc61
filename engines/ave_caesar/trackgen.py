"""Development tool: (re)builds ``data/ave_caesar/track_a.json`` and ``track_b.json``.

The JSON files are the source of truth the engine loads; this script only records how they were laid out so
that a track can be changed without hand-editing ~80 polygons. Run ``python -m engines.ave_caesar.trackgen``
and then ``python -m engines.ave_caesar.validate``. The engine never imports this module.

Geometry: a circus oval in a 1000 x 480 frame. Sections run clockwise (on screen): the top straight left to
right, the east curve, the bottom straight right to left, the west curve. Lane 0 is the inner lane (next to the
spina), lane 2 the outer one. On straights every lane has one space per column; on curves each lane has its
own number of wedge-shaped spaces, the inner lane fewest and each lane further out more (that is what makes
the outside expensive: the inner arc is the cheapest way round every curve).

Forward neighbours ("next", clockwise) are derived from the drawing: straight ahead in the same lane, and
diagonally into a neighbouring lane, to the space of that lane that straddles this space's front edge, unless a
wall runs along the lane boundary there, and never to a space that lies beside this one (one that begins
where this one begins or further back: in a curve the neighbouring lane's wedges are longer or shorter, and
the wedge straddling the front edge may be the one alongside). Counter-clockwise races use the same links reversed (the physical
board is the same), so both directions are always consistent.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[2] / "data" / "ave_caesar"

FRAME = (1000, 480)
CX, CY = 500.0, 240.0
HALF_STRAIGHT = 250.0
R0 = 110.0  # inner edge of lane 0 (distance from the curve centre / from the spina axis)
LANE_W = 40.0
ALLEY_W = 36.0
SECTIONS = ("top", "east", "bottom", "west")
ALL = (0, 1, 2)

# Layouts. Straights: one lane set per column (in driving order, clockwise). Curves: spaces per lane.
# walls: (section, lower lane of the boundary, first column, last column): no lane change across that
# boundary between those columns. alley: on a straight, beside columns first..last, with `spaces` spaces;
# entered from lane 0 of column first-1, left into lane 0 of column last+1.
LAYOUTS: dict[str, dict[str, Any]] = {
    "A": {
        "title": "Track A (Circus Maximus)",
        "route": 80,
        "curve_penalty": 2,
        "top": [ALL] * 7,
        "east": (6, 7, 8),
        "bottom": [ALL, ALL, ALL, ALL, (0, 1), (0, 1), (1,)],
        "west": (6, 7, 8),
        "line_after": 2,  # the finish line lies between top columns 2 and 3
        "alley": {"section": "bottom", "first": 2, "last": 4, "spaces": 4},
        "walls": [("bottom", 1, 0, 2)],
    },
    "B": {
        "title": "Track B (Circus Flaminius)",
        "route": 78,
        "curve_penalty": 2,
        "top": [(1,), (1, 2), ALL, ALL, ALL, ALL, ALL, ALL],
        "east": (5, 6, 7),
        "bottom": [ALL, (0, 1), (1,), ALL, ALL, ALL, ALL],
        "west": (5, 6, 7),
        "line_after": 3,
        "alley": {"section": "bottom", "first": 4, "last": 5, "spaces": 4},
        "walls": [("top", 1, 5, 7)],
    },
}


def _beside(target_start: float, start: float) -> bool:
    """Does a space beginning at ``target_start`` lie beside (not ahead of) one beginning at ``start``?"""
    return (target_start - start) % 4.0 < 1e-6 or (target_start - start) % 4.0 > 2.0


def _r(v: float) -> float:
    return round(v, 1)


def _straight_geom(section: str, cols: int, col: int, lane: int):
    """Rectangle of a straight space: returns (polygon, centre)."""
    length = 2 * HALF_STRAIGHT / cols
    if section == "top":
        x0 = CX - HALF_STRAIGHT + col * length
        x1 = x0 + length
        y1 = CY - R0 - lane * LANE_W
        y0 = y1 - LANE_W
    else:  # bottom, driven right to left
        x1 = CX + HALF_STRAIGHT - col * length
        x0 = x1 - length
        y0 = CY + R0 + lane * LANE_W
        y1 = y0 + LANE_W
    poly = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return poly, ((x0 + x1) / 2, (y0 + y1) / 2)


def _arc(cx, cy, r, a0, a1, steps):
    return [(cx + r * math.cos(a0 + (a1 - a0) * i / steps), cy + r * math.sin(a0 + (a1 - a0) * i / steps))
            for i in range(steps + 1)]


def _curve_geom(section: str, n: int, k: int, lane: int):
    """Wedge of a curve space: lane annulus, k-th of n equal angular segments (clockwise on screen)."""
    if section == "east":
        cx, base = CX + HALF_STRAIGHT, -math.pi / 2
    else:
        cx, base = CX - HALF_STRAIGHT, math.pi / 2
    a0 = base + math.pi * k / n
    a1 = base + math.pi * (k + 1) / n
    rin = R0 + lane * LANE_W
    rout = rin + LANE_W
    steps = max(2, round(8 / n * 3))
    poly = _arc(cx, CY, rin, a0, a1, steps) + _arc(cx, CY, rout, a1, a0, steps)
    am = (a0 + a1) / 2
    rm = (rin + rout) / 2
    return poly, (cx + rm * math.cos(am), CY + rm * math.sin(am))


def _alley_geom(layout, cols: int, i: int, m: int):
    """The alley is a bay bowing into the infield from the inner edge of a straight (half an elliptic ring)."""
    spec = layout["alley"]
    length = 2 * HALF_STRAIGHT / cols
    first, last = spec["first"], spec["last"]
    if spec["section"] == "bottom":
        xa = CX + HALF_STRAIGHT - first * length  # driving right to left: the bay starts on the right
        xb = CX + HALF_STRAIGHT - (last + 1) * length
        edge_y, sign = CY + R0, -1.0
    else:
        xa = CX - HALF_STRAIGHT + first * length
        xb = CX - HALF_STRAIGHT + (last + 1) * length
        edge_y, sign = CY - R0, 1.0
    xc = (xa + xb) / 2
    a_out = abs(xb - xa) / 2
    a_in = a_out - ALLEY_W
    b_out = 64.0
    b_in = b_out - ALLEY_W
    # parameter phi runs from the entry end to the exit end
    start = 0.0 if xa > xb else math.pi
    end = math.pi - start

    def point(a, b, phi):
        return (xc + a * math.cos(phi), edge_y + sign * b * math.sin(phi))

    p0 = start + (end - start) * i / m
    p1 = start + (end - start) * (i + 1) / m
    steps = 4
    outer = [point(a_out, b_out, p0 + (p1 - p0) * s / steps) for s in range(steps + 1)]
    inner = [point(a_in, b_in, p1 + (p0 - p1) * s / steps) for s in range(steps + 1)]
    pm = (p0 + p1) / 2
    centre = point((a_out + a_in) / 2, (b_out + b_in) / 2, pm)
    return outer + inner, centre, (xc, edge_y + sign * (b_out + 14))  # label spot above the bay


def _new_space(name: str, index: int, sec_i: int, lane: int, t0: float, t1: float, poly: list, centre: tuple,
               col: int) -> dict:
    return {"id": f"{name}{index:02d}", "sec": SECTIONS[sec_i], "col": col, "lane": lane,
            "x": _r(centre[0]), "y": _r(centre[1]), "poly": [[_r(x), _r(y)] for x, y in poly],
            "_t": (sec_i + t0, sec_i + t1)}


def _lay_out(name: str, layout: dict) -> tuple[list[dict], dict[int, dict[int, list]]]:
    """Every space of the four sections in driving order, and by section and lane (with progress spans
    ``_t``: section index + fraction of the section)."""
    spaces: list[dict] = []
    by_section: dict[int, dict[int, list]] = {}
    for sec_i, sec in enumerate(SECTIONS):
        spec = layout[sec]
        cells = []  # (lane, t0, t1, poly, centre, col)
        if sec in ("top", "bottom"):
            cols = len(spec)
            for c, lanes in enumerate(spec):
                for lane in lanes:
                    poly, centre = _straight_geom(sec, cols, c, lane)
                    cells.append((lane, c / cols, (c + 1) / cols, poly, centre, c))
        else:
            for lane, n in enumerate(spec):
                for k in range(n):
                    poly, centre = _curve_geom(sec, n, k, lane)
                    cells.append((lane, k / n, (k + 1) / n, poly, centre, k))
        for lane, t0, t1, poly, centre, col in cells:
            space = _new_space(name, len(spaces), sec_i, lane, t0, t1, poly, centre, col)
            spaces.append(space)
            by_section.setdefault(sec_i, {}).setdefault(lane, []).append(space)
    return spaces, by_section


def _lane_at(by_section: dict[int, dict[int, list]], lane: int, g: float) -> dict | None:
    """The space of ``lane`` containing progress point g (mod 4), or None."""
    g = g % 4.0
    sec_i = int(g)
    for sp in by_section.get(sec_i, {}).get(lane, []):
        t0, t1 = sp["_t"]
        if t0 <= g < t1:
            return sp
    return None


def _walled(layout: dict, sec_i: int, lo_lane: int, g_cross: float) -> bool:
    """Is a lane change across the boundary above ``lo_lane`` at progress point g_cross walled off?"""
    sec = SECTIONS[sec_i]
    if sec not in ("top", "bottom"):
        return False
    local = (g_cross - sec_i) * len(layout[sec])
    for wsec, wlane, c0, c1 in layout["walls"]:
        # the wall is drawn from the middle of column c0 to the middle of column c1: it blocks the
        # column boundaries strictly inside that stretch
        if wsec == sec and wlane == lo_lane and c0 < local - 1e-9 and local + 1e-9 < c1 + 1:
            return True
    return False


def _link(layout: dict, spaces: list[dict], by_section: dict[int, dict[int, list]]) -> None:
    """Each space's forward neighbours: straight ahead, and diagonally unless walled off or beside it."""
    eps = 1e-6
    for sp in spaces:
        t1 = sp["_t"][1]
        nxt = []
        for lane in (sp["lane"], sp["lane"] - 1, sp["lane"] + 1):
            if lane not in ALL:
                continue
            target = _lane_at(by_section, lane, t1 + eps)
            if target is None:
                continue
            if lane != sp["lane"] and _walled(layout, int(sp["_t"][0]), min(lane, sp["lane"]), t1):
                continue
            if lane != sp["lane"] and _beside(target["_t"][0], sp["_t"][0]):
                continue  # a sideways step, not a diagonal one
            nxt.append(target["id"])
        sp["next"] = nxt


def _main_space(by_section: dict[int, dict[int, list]], sec_i: int, col: int, lane: int) -> dict:
    for sp in by_section[sec_i][lane]:
        if sp["col"] == col:
            return sp
    raise ValueError(f"no lane {lane} in column {col} of {SECTIONS[sec_i]}")


def _add_alley(name: str, layout: dict, spaces: list[dict], by_section: dict[int, dict[int, list]]) -> dict:
    """Caesar's alley: its spaces (appended to ``spaces``), linked in from lane 0 before it and out to lane 0
    after it; its access spaces, gates and label box, as the track file records them."""
    spec = layout["alley"]
    sec_i = SECTIONS.index(spec["section"])
    cols = len(layout[spec["section"]])
    m = spec["spaces"]
    access = _main_space(by_section, sec_i, spec["first"] - 1, 0)
    exit_ = _main_space(by_section, sec_i, spec["last"] + 1, 0)
    alley: list[dict[str, Any]] = []
    box = (0.0, 0.0)
    for i in range(m):
        poly, centre, box = _alley_geom(layout, cols, i, m)
        alley.append({"id": f"{name}{len(spaces) + i:02d}", "sec": "alley", "col": i, "lane": -1,
                      "x": _r(centre[0]), "y": _r(centre[1]), "poly": [[_r(x), _r(y)] for x, y in poly],
                      "next": []})
    for a, b in zip(alley, alley[1:]):
        a["next"].append(b["id"])
    alley[-1]["next"].append(exit_["id"])
    access["next"].append(alley[0]["id"])
    spaces.extend(alley)
    alley_span = (sec_i + spec["first"] / cols, sec_i + (spec["last"] + 1) / cols)
    for i, a in enumerate(alley):
        w = (alley_span[1] - alley_span[0]) / m
        a["_t"] = (alley_span[0] + i * w, alley_span[0] + (i + 1) * w)
    gate_cw = [sp["id"] for sp in spaces if sp["sec"] == spec["section"] and sp["col"] == spec["first"]]
    gate_ccw = [sp["id"] for sp in spaces if sp["sec"] == spec["section"] and sp["col"] == spec["last"]]
    return {"spaces": [a["id"] for a in alley], "access": {"cw": access["id"], "ccw": exit_["id"]},
            "gate": {"cw": gate_cw, "ccw": gate_ccw}, "box": [_r(box[0]), _r(box[1])]}


def _line_and_grids(layout: dict, spaces: list[dict]) -> tuple[dict, dict]:
    """The finish line and the two start grids, on the top straight."""
    k = layout["line_after"]
    top = [sp for sp in spaces if sp["sec"] == "top"]

    def column(c: int) -> list[dict]:
        return sorted((sp for sp in top if sp["col"] == c), key=lambda sp: sp["lane"])

    before, after = column(k), column(k + 1)
    grid_cw = [sp["id"] for sp in column(k)] + [sp["id"] for sp in column(k - 1)]
    grid_ccw = [sp["id"] for sp in column(k + 1)] + [sp["id"] for sp in column(k + 2)]
    assert len(grid_cw) == 6 and len(grid_ccw) == 6, "the start grid needs two full 3-lane columns each side"
    top_cols = len(layout["top"])
    line_x = CX - HALF_STRAIGHT + (k + 1) * (2 * HALF_STRAIGHT / top_cols)
    line = {"before": [sp["id"] for sp in before], "after": [sp["id"] for sp in after],
            "draw": [_r(line_x), _r(CY - R0 - 3 * LANE_W), _r(line_x), _r(CY - R0)]}
    return line, {"cw": grid_cw, "ccw": grid_ccw}


def _walls(layout: dict) -> list[list[float]]:
    """Walls as segments: the layout's walls, then the alley wall along the inner edge between its mouths."""
    walls = []
    for wsec, wlane, c0, c1 in layout["walls"]:
        wcols = len(layout[wsec])
        length = 2 * HALF_STRAIGHT / wcols
        if wsec == "top":
            y = CY - R0 - (wlane + 1) * LANE_W
            xa = CX - HALF_STRAIGHT + (c0 + 0.5) * length
            xb = CX - HALF_STRAIGHT + (c1 + 0.5) * length
        else:
            y = CY + R0 + (wlane + 1) * LANE_W
            xa = CX + HALF_STRAIGHT - (c0 + 0.5) * length
            xb = CX + HALF_STRAIGHT - (c1 + 0.5) * length
        walls.append([_r(xa), _r(y), _r(xb), _r(y)])
    spec = layout["alley"]
    length = 2 * HALF_STRAIGHT / len(layout["bottom"])
    if spec["section"] == "bottom":
        xa = CX + HALF_STRAIGHT - spec["first"] * length - ALLEY_W
        xb = CX + HALF_STRAIGHT - (spec["last"] + 1) * length + ALLEY_W
        walls.append([_r(xa), CY + R0, _r(xb), CY + R0])
    return walls


def _stone(layout: dict) -> list[list[list[float]]]:
    """Stone where a lane is missing on a straight."""
    stone = []
    for sec in ("top", "bottom"):
        cols = len(layout[sec])
        for c, lanes in enumerate(layout[sec]):
            for lane in ALL:
                if lane not in lanes:
                    poly, _ = _straight_geom(sec, cols, c, lane)
                    stone.append([[_r(x), _r(y)] for x, y in poly])
    return stone


def _curves(spaces: list[dict]) -> list[dict]:
    curves = []
    for sec in ("east", "west"):
        lanes = {}
        for lane, label in enumerate(("inner", "middle", "outer")):
            lanes[label] = [sp["id"] for sp in spaces if sp["sec"] == sec and sp["lane"] == lane]
        curves.append({"name": sec, **lanes})
    return curves


def build(name: str) -> dict:
    """Track ``name``'s JSON data (see the module docstring)."""
    layout = LAYOUTS[name]
    spaces, by_section = _lay_out(name, layout)
    _link(layout, spaces, by_section)
    alley = _add_alley(name, layout, spaces, by_section)
    line, start = _line_and_grids(layout, spaces)
    bottlenecks = [sp["id"] for sp in spaces if sp["sec"] in ("top", "bottom")
                   and len(layout[sp["sec"]][sp["col"]]) == 1]
    # the spina sits a little north of the axis to leave room for the alley's label
    spina = [[_r(CX - HALF_STRAIGHT + 10), CY - 36], [_r(CX + HALF_STRAIGHT - 10), CY - 36],
             [_r(CX + HALF_STRAIGHT - 10), CY + 14], [_r(CX - HALF_STRAIGHT + 10), CY + 14]]
    for sp in spaces:
        t0, t1 = sp.pop("_t")
        sp["span"] = [round(t0, 4), round(t1, 4)]
    return {
        "name": name,
        "title": layout["title"],
        "frame": list(FRAME),
        "route": layout["route"],
        "curve_penalty": layout["curve_penalty"],
        "spaces": spaces,
        "line": line,
        "start": start,
        "alley": alley,
        "bottlenecks": bottlenecks,
        "curves": _curves(spaces),
        "walls": _walls(layout),
        "stone": _stone(layout),
        "spina": spina,
    }


def dumps(data: dict) -> str:
    """JSON with one space (or one drawing item) per line: compact, yet readable in a diff."""
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        value = data[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], (dict, list)):
            lines.append(f"  {json.dumps(key)}: [")
            for j, item in enumerate(value):
                lines.append("    " + json.dumps(item, separators=(",", ":")) + ("," if j < len(value) - 1 else ""))
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, separators=(',', ':'))}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in LAYOUTS:
        data = build(name)
        path = OUT / f"track_{name.lower()}.json"
        path.write_text(dumps(data))
        print(f"wrote {path} ({len(data['spaces'])} spaces)")


if __name__ == "__main__":
    main()
