"""Tournament pictures: the standings table, the elimination bracket and the podium, in the boards' style
(render/kit.py: paper, ink, the fixed palette). Pure: a view (a dict) in, PNG bytes out.

Made for a phone: 480 px wide, so that Discord's 420 px column shows the type at 14 px and up. A table shows at
most ``ROWS_PER_PAGE`` players and a bracket at most ``ROUNDS_PER_PAGE`` rounds of at most ``MATCHES_PER_PAGE``
first matches (a page about 540 px tall: a 64-player bracket is four pages of its first three rounds and one of
the last three); larger ones are several pictures (``standings_pages``/``bracket_pages``), byes are no boxes.

Views: ``standings``: {title, subtitle, legend (the tie-breaks named), labels: {place, name, points, record},
columns: [{key, label}] (the tie-breaks, at most three), rows: [{place, name, points, values (one per column),
record, dropped}]}; numbers may be fractions (drawn 2½, 1⅔); ``bracket``: {title, labels: {round, final,
third}, heads: {round: name}, rounds (how many), matches: [{round, slot, names, places, winner, score (games won, best of N)}]}; ``podium``: {title,
places: [[names], [names], [names]]}.
"""

from __future__ import annotations

from fractions import Fraction

from render.kit import canvas, encode, fit_words, fitted, palette, rgb, text

WIDTH = 480
ROW = 28
ROWS_PER_PAGE = 64
ROUNDS_PER_PAGE = 3
MATCHES_PER_PAGE = 8
TYPE = 16
SMALL = 14


#: the vulgar fractions the fonts have, for exact scores (⅔, not 0.67)
FRACTIONS = {(1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾", (1, 5): "⅕", (2, 5): "⅖",
             (3, 5): "⅗", (4, 5): "⅘", (1, 6): "⅙", (5, 6): "⅚", (1, 8): "⅛", (3, 8): "⅜", (5, 8): "⅝",
             (7, 8): "⅞"}


def number(x) -> str:
    """A score as people write it: 2, 2½, 1⅔, ⅓; a fraction without a sign of its own as a decimal (1.42)."""
    if isinstance(x, str):
        return x
    value = Fraction(x).limit_denominator(10**6) if not isinstance(x, Fraction) else x
    whole, part = divmod(value, 1)
    if not part:
        return str(int(whole))
    sign = ""
    if value < 0:
        sign, whole, part = "−", *divmod(-value, 1)
    glyph = FRACTIONS.get((part.numerator, part.denominator))
    if glyph is None:
        return sign + f"{float(abs(value)):.2f}"
    return sign + (str(int(whole)) if whole else "") + glyph


_num = number


def render_standings(view: dict) -> bytes:
    """One page of the standings table: place, name, points, the organizer's tie-breaks in their order (the
    subtitle names them), the record."""
    rows = view["rows"][:ROWS_PER_PAGE]
    labels = view["labels"]
    columns = view.get("columns") or [{"key": "buchholz", "label": labels.get("buchholz", "BH")},
                                      {"key": "sonneborn", "label": labels.get("sonneborn", "SB")}]
    columns = columns[:3]
    legend = view.get("legend")
    top = 86 + (22 if legend else 0)
    height = top + ROW * (len(rows) + 1) - 8
    img, draw = canvas(WIDTH, height)
    draw.rectangle((0, 0, WIDTH, 58 + (22 if legend else 0)), fill=rgb("table"))
    title, size, cond = fitted(view["title"], WIDTH - 24, 22, bold=True)
    text(draw, (12, 8), title, size, fill="white", bold=True, condensed=cond)
    sub, size, cond = fitted(view.get("subtitle", ""), WIDTH - 24, SMALL)
    text(draw, (12, 36), sub, size, fill="paper", condensed=cond)
    if legend:
        line, size, cond = fitted(legend, WIDTH - 24, SMALL)
        text(draw, (12, 58), line, size, fill="paper", condensed=cond)
    record_x = WIDTH - 62
    tb_w = 56
    points_x = record_x - tb_w * len(columns) - 50
    cols = [("place", 12, 30), ("name", 44, points_x - 50), ("points", points_x, 46)]
    cols += [(f"tb{i}", points_x + 50 + i * tb_w, tb_w - 4) for i in range(len(columns))]
    cols.append(("record", record_x, WIDTH - record_x - 4))
    heads = {"place": labels["place"], "name": labels["name"], "points": labels["points"],
             "record": labels["record"], **{f"tb{i}": c["label"] for i, c in enumerate(columns)}}
    y = top - 20
    draw.rectangle((0, y - 4, WIDTH, y + ROW - 6), fill=rgb("panel_dark"))
    for key, x, w in cols:
        label, size, cond = fitted(heads[key], w, SMALL, bold=True)
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
        name, size, cond = fit_words(row["name"] + (" ✕" if row.get("dropped") else ""), points_x - 50, TYPE,
                                     smallest=SMALL)
        text(draw, (44, y), name, size, fill=ink, condensed=cond)
        text(draw, (points_x, y), number(row["points"]), TYPE, fill=ink, bold=True)
        values = row.get("values") or [row.get(c["key"], 0) for c in columns]
        for k, value in enumerate(values[:len(columns)]):
            shown, size, cond = fitted(number(value), tb_w - 4, TYPE, smallest=SMALL)
            text(draw, (points_x + 50 + k * tb_w, y), shown, size, fill=ink, condensed=cond)
        record, size, cond = fitted(row["record"], WIDTH - record_x - 4, SMALL, smallest=SMALL)
        text(draw, (record_x, y + 1), record, size, fill=ink, condensed=cond)
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
    ``MATCHES_PER_PAGE`` matches of its first round (and the later matches they feed). A bye is no box: its player
    is simply in the next round. Column heads are the rounds' names (``heads``: round -> name)."""
    labels = view["labels"]
    heads = view.get("heads") or {}
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
        head = heads.get(r) or heads.get(str(r)) or (labels["final"] if r == total else
                                                       labels["round"].format(round=r))
        head, size, cond = fitted(head, BOX_W, SMALL, bold=True)
        text(draw, (x, 38), head, size, fill="paper", bold=True, condensed=cond)
        count = max(1, per >> c)
        span = lanes * (BOX_H + GAP) / count
        for k in range(count):
            slot = chunk * (per >> c) + k
            match = by.get((r, slot))
            if match is not None and len(match["names"]) == 1:
                continue  # a bye: no box, no line; its player is in the next round
            y = 70 + span * k + (span - BOX_H - GAP) / 2
            _box(draw, x, y, match if match is not None else _coming(by, r, slot), labels)
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


def _coming(by: dict, r: int, slot: int) -> dict | None:
    """A match not paired yet, with whoever is through to it already (a bye, or a match decided)."""
    names = []
    for feeder in (by.get((r - 1, 2 * slot)), by.get((r - 1, 2 * slot + 1))):
        through = (feeder or {}).get("winner") if feeder and (feeder.get("places") or len(feeder["names"]) == 1) \
            else None
        names.append(through or "")
    return {"names": names, "places": None, "winner": None, "coming": True} if any(names) else None


def _box(draw, x: float, y: float, match: dict | None, labels: dict) -> None:
    draw.rounded_rectangle((x, y, x + BOX_W, y + BOX_H), radius=6, fill=rgb("white"), outline=rgb("dark_grey"))
    if match is None:
        return
    names = list(match["names"])
    places = match.get("places")
    for i, name in enumerate(names[:2]):
        won = match.get("winner") is not None and names[i] == match["winner"] and places is not None
        if won:
            draw.rectangle((x + 2, y + 2 + i * 22, x + BOX_W - 2, y + 22 + i * 22), fill=rgb("gold"))
        if not name:
            continue
        shown, size, cond = fit_words(name, BOX_W - 34, SMALL, bold=won, smallest=SMALL)
        text(draw, (x + 6, y + 4 + i * 22), shown, size, bold=won, condensed=cond,
             fill="grey" if match.get("coming") else "ink")
        score = match.get("score") or places  # a best-of-N match shows its games won
        if score and i < len(score):
            text(draw, (x + BOX_W - 8, y + 4 + i * 22), str(score[i]), SMALL, anchor="ra")


def bracket_pages(view: dict, from_round: int = 1) -> list[bytes]:
    """The bracket from the block of ``ROUNDS_PER_PAGE`` rounds holding ``from_round`` (the round being played:
    finished blocks are left out) to the final: ``MATCHES_PER_PAGE`` first matches a picture."""
    out = []
    total = view["rounds"]
    start = (max(1, min(from_round, total)) - 1) // ROUNDS_PER_PAGE * ROUNDS_PER_PAGE + 1
    for first in range(start, total + 1, ROUNDS_PER_PAGE):
        slots = 1 << (total - first)
        for chunk in range(max(1, slots // MATCHES_PER_PAGE)):
            out.append(render_bracket(view, first, chunk))
    return out


def render_columns(view: dict) -> bytes:
    """Matches in columns without lines (a double elimination's losers' bracket and grand final): ``columns``
    [{head, matches}], up to ``ROUNDS_PER_PAGE`` columns of up to ``MATCHES_PER_PAGE`` boxes."""
    columns = view["columns"][:ROUNDS_PER_PAGE]
    rows = max([len(c["matches"]) for c in columns] + [1])
    height = 70 + rows * (BOX_H + GAP) + 8
    img, draw = canvas(WIDTH, height)
    draw.rectangle((0, 0, WIDTH, 58), fill=rgb("table"))
    title, size, cond = fitted(view["title"], WIDTH - 24, 22, bold=True)
    text(draw, (12, 8), title, size, fill="white", bold=True, condensed=cond)
    for c, column in enumerate(columns):
        x = 8 + c * (BOX_W + 12)
        head, size, cond = fitted(column["head"], BOX_W, SMALL, bold=True)
        text(draw, (x, 38), head, size, fill="paper", bold=True, condensed=cond)
        span = rows * (BOX_H + GAP) / max(1, len(column["matches"]))
        for k, match in enumerate(column["matches"][:MATCHES_PER_PAGE]):
            _box(draw, x, 70 + span * k + (span - BOX_H - GAP) / 2, match, view.get("labels") or {})
    return encode(img, palette())


def column_pages(view: dict) -> list[bytes]:
    """``ROUNDS_PER_PAGE`` columns a picture, ``MATCHES_PER_PAGE`` matches of each column a picture."""
    out = []
    columns = [c for c in view["columns"] if c["matches"]]
    for first in range(0, len(columns), ROUNDS_PER_PAGE):
        block = columns[first:first + ROUNDS_PER_PAGE]
        for chunk in range(0, max(len(c["matches"]) for c in block), MATCHES_PER_PAGE):
            out.append(render_columns({**view, "columns": [
                {**c, "matches": c["matches"][chunk:chunk + MATCHES_PER_PAGE]} for c in block]}))
    return out


def pages(standings: dict, bracket: dict | None = None, losers: dict | None = None, from_round: int = 1,
          most: int = 10) -> list[bytes]:
    """The standings pages, then the bracket's from ``from_round`` (``bracket`` None: none), then the columns of
    ``losers`` (a double elimination's; None: none): at most ``most`` pictures (a Discord message takes ten
    files), and no picture beyond them is drawn."""
    rows = standings["rows"]
    out = [render_standings({**standings, "rows": rows[i:i + ROWS_PER_PAGE]})
           for i in range(0, max(len(rows), 1), ROWS_PER_PAGE)[:most]]
    if bracket is not None and len(out) < most:
        out += bracket_pages(bracket, from_round)[:most - len(out)]
    if losers is not None and len(out) < most:
        out += column_pages(losers)[:most - len(out)]
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
