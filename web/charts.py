"""A rating's course as an inline SVG line chart, drawn on the server (no script, no CDN, no inline style: the
page's stylesheet colours it through class names)."""

from __future__ import annotations

from markupsafe import Markup, escape

WIDTH, HEIGHT = 600, 200
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 10, 12, 24


def _label(value: float) -> str:
    return f"{value:.1f}"


def rating_chart(values: list[float], label: str, games_label: str) -> Markup:
    """An SVG of ``values`` (oldest first): the line, a dot on the last value, the lowest and highest values and
    the number of games on the axes. ``label``: what the chart shows, for screen readers."""
    if not values:
        return Markup("")
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    step = inner_w / max(1, len(values) - 1)

    def x(i: int) -> float:
        return PAD_LEFT + (i * step if len(values) > 1 else inner_w / 2)

    def y(v: float) -> float:
        return PAD_TOP + (high - v) / (high - low) * inner_h

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    last_x, last_y = x(len(values) - 1), y(values[-1])
    bottom = HEIGHT - PAD_BOTTOM
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}"'
        f' xmlns="http://www.w3.org/2000/svg">',
        f'<line class="axis" x1="{PAD_LEFT}" y1="{bottom}" x2="{WIDTH - PAD_RIGHT}" y2="{bottom}"/>',
        f'<line class="axis" x1="{PAD_LEFT}" y1="{PAD_TOP}" x2="{PAD_LEFT}" y2="{bottom}"/>',
        f'<line class="grid" x1="{PAD_LEFT}" y1="{PAD_TOP}" x2="{WIDTH - PAD_RIGHT}" y2="{PAD_TOP}"/>',
        f'<text class="tick" x="{PAD_LEFT - 4}" y="{PAD_TOP + 4}" text-anchor="end">{_label(high)}</text>',
        f'<text class="tick" x="{PAD_LEFT - 4}" y="{bottom}" text-anchor="end">{_label(low)}</text>',
        f'<text class="tick" x="{WIDTH - PAD_RIGHT}" y="{HEIGHT - 6}" text-anchor="end">'
        f'{escape(games_label)}</text>',
        f'<polyline class="line" points="{points}"/>',
        f'<circle class="dot" cx="{last_x:.1f}" cy="{last_y:.1f}" r="4"/>',
        "</svg>",
    ]
    return Markup("".join(parts))
