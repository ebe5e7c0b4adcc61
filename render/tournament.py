"""Tournament pictures: the standings table, the elimination bracket and the podium, in the boards' style
(render/kit.py: paper, ink, the fixed palette). Pure: a view (a dict) in, PNG bytes out.

Made for a phone: 480 px wide, so that Discord's 420 px column shows the type at 14 px and up. A table shows at
most ``ROWS_PER_PAGE`` players and a bracket at most ``ROUNDS_PER_PAGE`` rounds of at most ``MATCHES_PER_PAGE``
first matches; larger ones are several pictures (``standings_pages``/``bracket_pages``).

Views: ``standings``: {title, subtitle, labels: {place, name, points, buchholz, sonneborn, record}, rows:
[{place, name, points, buchholz, sonneborn, record, dropped}]}; ``bracket``: {title, labels: {round, final,
third, bye}, rounds (how many), matches: [{round, slot, names, places, winner}]}; ``podium``: {title,
places: [[names], [names], [names]]}.
"""

from __future__ import annotations

from render.kit import canvas, encode, fit_words, fitted, palette, rgb, text

WIDTH = 480
ROW = 28
ROWS_PER_PAGE = 64
ROUNDS_PER_PAGE = 3
MATCHES_PER_PAGE = 32
TYPE = 16
SMALL = 14


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


def render_standings(view: dict) -> bytes:
    """One page of the standings table."""
    rows = view["rows"][:ROWS_PER_PAGE]
    labels = view["labels"]
    height = 86 + ROW * (len(rows) + 1) + 12
    img, draw = canvas(WIDTH, height)
    draw.rectangle((0, 0, WIDTH, 58), fill=rgb("table"))
    title, size, cond = fitted(view["title"], WIDTH - 24, 22, bold=True)
    text(draw, (12, 8), title, size, fill="white", bold=True, condensed=cond)
    sub, size, cond = fitted(view.get("subtitle", ""), WIDTH - 24, SMALL)
    text(draw, (12, 36), sub, size, fill="paper", condensed=cond)
    cols = {"place": 12, "name": 46, "points": 246, "buchholz": 292, "sonneborn": 348, "record": 410}
    y = 66
    draw.rectangle((0, y - 4, WIDTH, y + ROW - 6), fill=rgb("panel_dark"))
    for key, x in cols.items():
        label, size, cond = fitted(labels[key], (54 if key != "name" else 200), SMALL, bold=True)
        text(draw, (x, y), label, size, bold=True, condensed=cond)
    y += ROW
    for i, row in enumerate(rows):
        if i % 2:
            draw.rectangle((0, y - 5, WIDTH, y + ROW - 5), fill=rgb("panel"))
        ink = "grey" if row.get("dropped") else "ink"
        medal = {1: "gold", 2: "light_grey", 3: "orange"}.get(row["place"])
        if medal:
            draw.ellipse((8, y - 2, 32, y + 22), fill=rgb(medal))
        text(draw, (20, y + 10), str(row["place"]), TYPE, fill=ink, bold=True, anchor="mm")
        name, size, cond = fit_words(row["name"] + (" ✕" if row.get("dropped") else ""), 194, TYPE, smallest=SMALL)
        text(draw, (cols["name"], y), name, size, fill=ink, condensed=cond)
        text(draw, (cols["points"], y), _num(row["points"]), TYPE, fill=ink, bold=True)
        text(draw, (cols["buchholz"], y), _num(row["buchholz"]), TYPE, fill=ink)
        sb, size, cond = fitted(_num(row["sonneborn"]), 58, TYPE, smallest=SMALL)
        text(draw, (cols["sonneborn"], y), sb, size, fill=ink, condensed=cond)
        record, size, cond = fitted(row["record"], WIDTH - cols["record"] - 4, SMALL, smallest=SMALL)
        text(draw, (cols["record"], y + 1), record, size, fill=ink, condensed=cond)
        y += ROW
    return encode(img, palette())


def standings_pages(view: dict) -> list[bytes]:
    """The whole table, ``ROWS_PER_PAGE`` players a picture."""
    rows = view["rows"]
    return [render_standings({**view, "rows": rows[i:i + ROWS_PER_PAGE]})
            for i in range(0, max(len(rows), 1), ROWS_PER_PAGE)]


BOX_W = 148
BOX_H = 48
GAP = 10


def render_bracket(view: dict, first_round: int = 1, chunk: int = 0) -> bytes:
    """Rounds ``first_round`` .. +``ROUNDS_PER_PAGE``-1 of the bracket, for the ``chunk``-th block of
    ``MATCHES_PER_PAGE`` matches of its first round (and the later matches they feed)."""
    labels = view["labels"]
    total = view["rounds"]
    shown = list(range(first_round, min(total, first_round + ROUNDS_PER_PAGE - 1) + 1))
    by = {(m["round"], m["slot"]): m for m in view["matches"]}
    slots0 = 1 << (total - first_round)  # matches of the page's first round in the whole bracket
    per = min(MATCHES_PER_PAGE, slots0)
    lanes = per  # vertical lanes of the first column
    height = 70 + lanes * (BOX_H + GAP) + (BOX_H + 40 if total in shown else 0)
    img, draw = canvas(WIDTH, height)
    draw.rectangle((0, 0, WIDTH, 58), fill=rgb("table"))
    title, size, cond = fitted(view["title"], WIDTH - 24, 22, bold=True)
    text(draw, (12, 8), title, size, fill="white", bold=True, condensed=cond)
    for c, r in enumerate(shown):
        x = 8 + c * (BOX_W + 12)
        head = labels["final"] if r == total else labels["round"].format(round=r)
        head, size, cond = fitted(head, BOX_W, SMALL, bold=True)
        text(draw, (x, 38), head, size, fill="paper", bold=True, condensed=cond)
        count = max(1, per >> c)
        span = lanes * (BOX_H + GAP) / count
        for k in range(count):
            slot = chunk * (per >> c) + k
            y = 70 + span * k + (span - BOX_H - GAP) / 2
            _box(draw, x, y, by.get((r, slot)), labels)
            if c + 1 < len(shown):  # the line to the match this one feeds
                ny = 70 + span * 2 * (k // 2) + (2 * span - BOX_H - GAP) / 2 + BOX_H / 2
                draw.line((x + BOX_W, y + BOX_H / 2, x + BOX_W + 6, y + BOX_H / 2, x + BOX_W + 6, ny,
                           x + BOX_W + 12, ny), fill=rgb("dark_grey"), width=2)
    if total in shown and (total, 1) in by:
        x = 8 + (len(shown) - 1) * (BOX_W + 12)
        y = height - BOX_H - 16
        label, size, cond = fitted(labels["third"], BOX_W, SMALL, bold=True)
        text(draw, (x, y - 20), label, size, bold=True, condensed=cond)
        _box(draw, x, y, by[(total, 1)], labels)
    return encode(img, palette())


def _box(draw, x: float, y: float, match: dict | None, labels: dict) -> None:
    draw.rounded_rectangle((x, y, x + BOX_W, y + BOX_H), radius=6, fill=rgb("white"), outline=rgb("dark_grey"))
    if match is None:
        return
    names = list(match["names"])
    places = match.get("places")
    if len(names) == 1:
        names.append(labels["bye"])
    for i, name in enumerate(names[:2]):
        won = match.get("winner") is not None and i < len(match["names"]) and match["names"][i] == match["winner"]
        if won:
            draw.rectangle((x + 2, y + 2 + i * 22, x + BOX_W - 2, y + 22 + i * 22), fill=rgb("gold"))
        shown, size, cond = fit_words(name, BOX_W - 34, SMALL, bold=won, smallest=SMALL)
        text(draw, (x + 6, y + 4 + i * 22), shown, size, bold=won, condensed=cond,
             fill="ink" if i < len(match["names"]) else "grey")
        if places and i < len(places) and len(match["names"]) > 1:
            text(draw, (x + BOX_W - 8, y + 4 + i * 22), str(places[i]), SMALL, anchor="ra")


def bracket_pages(view: dict) -> list[bytes]:
    """The whole bracket: ``ROUNDS_PER_PAGE`` rounds a picture, ``MATCHES_PER_PAGE`` first matches each."""
    out = []
    total = view["rounds"]
    for first in range(1, total + 1, ROUNDS_PER_PAGE):
        slots = 1 << (total - first)
        for chunk in range(max(1, slots // MATCHES_PER_PAGE)):
            out.append(render_bracket(view, first, chunk))
    return out


def pages(standings: dict, bracket: dict | None = None, most: int = 10) -> list[bytes]:
    """The standings pages, then the bracket's (``bracket`` None: none): at most ``most`` pictures (a Discord
    message takes ten files), and no picture beyond them is drawn."""
    rows = standings["rows"]
    out = [render_standings({**standings, "rows": rows[i:i + ROWS_PER_PAGE]})
           for i in range(0, max(len(rows), 1), ROWS_PER_PAGE)[:most]]
    if bracket is not None and len(out) < most:
        out += bracket_pages(bracket)[:most - len(out)]
    return out


def render_podium(view: dict) -> bytes:
    """The first three places on steps (gold in the middle)."""
    img, draw = canvas(WIDTH, 300)
    draw.rectangle((0, 0, WIDTH, 58), fill=rgb("table"))
    title, size, cond = fitted(view["title"], WIDTH - 24, 22, bold=True)
    text(draw, (12, 16), title, size, fill="white", bold=True, condensed=cond)
    steps = [(1, 160, 120, "gold"), (2, 20, 160, "light_grey"), (3, 300, 190, "orange")]
    for place, x, top, colour in steps:
        if place > len(view["places"]):
            continue
        draw.rectangle((x, top, x + 150, 290), fill=rgb(colour), outline=rgb("ink"))
        text(draw, (x + 75, top + 30), str(place), 30, bold=True, anchor="mm")
        for k, name in enumerate(view["places"][place - 1][:3]):
            shown, size, cond = fit_words(name, 150, TYPE, bold=True, smallest=SMALL)
            text(draw, (x + 75, top - 14 - 20 * (len(view["places"][place - 1][:3]) - 1 - k)), shown, size, bold=True, condensed=cond, anchor="mm")
    return encode(img, palette())
