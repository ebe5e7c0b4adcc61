"""What a seat can do now, as choices, and how those choices fit Discord's component limits.

Pure data (no discord import): the cogs turn ``Row`` objects into buttons and selects one to one.
A choice's ``index`` is its position in ``engine.legal_actions(state, seat)`` at ``version``; the version
check makes that index unambiguous. A choice may stand for one of the *variants* of that listed action
(``engine.variants``: e.g. who pays a HEX-TRI move), by its position in that list (``variant``), and a
choice whose action can be made in several ways may open those ways instead of acting (``more``): a third
step after group and choice, shown as a panel of its own (``Panel.back`` leads back to the group).
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_ROWS = 5
MAX_BUTTONS = 5
MAX_OPTIONS = 25
MAX_LABEL = 80
MAX_OPTION_LABEL = 100


@dataclass
class Choice:
    index: int
    label: str
    group: str = ""
    style: str = "secondary"  # primary | secondary | success | danger
    secret: bool = False  # reveals hidden information (a card in hand): never on a public message
    emoji: str | None = None
    description: str | None = None
    #: which of the listed action's variants this choice is (its position in ``engine.variants``); None: the
    #: listed action itself
    variant: int | None = None
    #: choosing it shows the action's variants to pick from (e.g. who pays) instead of acting at once
    more: bool = False


@dataclass
class Panel:
    game_id: int
    version: int
    seat: int
    prompt: str
    choices: list[Choice] = field(default_factory=list)
    #: first pick a group (e.g. a card), then one of its choices (e.g. a destination), even when all would fit
    two_step: bool = False
    #: fingerprint of the legal actions the choices index into (lets a click survive others' passes)
    digest: str = ""
    #: groups always shown as a select, whatever their size (e.g. "play a card" beside a Pass button)
    select_groups: set[str] = field(default_factory=set)
    #: a panel of one action's variants: (index, name) of the group of the panel it was opened from, for a
    #: button back to that group
    back: tuple[int, str] | None = None
    #: the game's private picture is not sent with its DM: the panel offers a button that shows it on request
    picture_on_request: bool = False

    @property
    def public_safe(self) -> bool:
        return bool(self.choices) and not any(c.secret for c in self.choices)

    def groups(self) -> list[tuple[str, list[Choice]]]:
        """Choices grouped in first-seen order."""
        out: dict[str, list[Choice]] = {}
        for c in self.choices:
            out.setdefault(c.group, []).append(c)
        return list(out.items())


@dataclass
class Row:
    kind: str  # "buttons" | "select" | "groups" (a select) | "group_buttons" | "pager"
    choices: list[Choice] = field(default_factory=list)
    placeholder: str = ""
    #: group rows: (group index, name) of the groups to open
    groups: list[tuple[int, str]] = field(default_factory=list)
    #: group_buttons: group index -> its only choice, shown as that choice's own button (one click)
    direct: dict[int, Choice] = field(default_factory=dict)
    selected: int | None = None  # the picked group (group rows)
    group: int = 0  # pager: the group being paged
    page: int = 0  # pager: the page shown
    pages: int = 1


def _rows_for(group: str, choices: list[Choice], select: bool = False) -> list[Row]:
    if len(choices) <= MAX_BUTTONS and not select:
        return [Row("buttons", choices)]
    chunks = [choices[i:i + MAX_OPTIONS] for i in range(0, len(choices), MAX_OPTIONS)]
    if len(chunks) == 1:
        return [Row("select", chunks[0], placeholder=group or "Choose…")]
    # several selects of one group: say which part of the list each one holds
    return [Row("select", chunk, placeholder=f"{group or 'Choose'}: {chunk[0].label} … {chunk[-1].label}")
            for chunk in chunks]


def layout(panel: Panel, reserved_rows: int = 0, group: int | None = None, page: int = 0) -> list[Row]:
    """Rows of components for ``panel`` within ``MAX_ROWS - reserved_rows`` rows.

    Each group becomes a row of buttons (up to 5 choices) or selects (25 choices each). When that does not
    fit, or the panel is ``two_step``, the first row picks a group (buttons for up to 5 groups, else a
    select) and, once a group is picked (``group`` = its index), that group's choices follow, in pages with
    a pager row when they need more rows than are left.
    """
    budget = MAX_ROWS - reserved_rows
    groups = panel.groups()
    if not panel.two_step:
        rows = [row for name, choices in groups for row in _rows_for(name, choices, name in panel.select_groups)]
        if len(rows) <= budget:
            return rows
    named = [(i, name or "…") for i, (name, _) in enumerate(groups)]
    # a group of one choice (e.g. "Pass") is that choice's own button: one click, not two
    direct = {i: choices[0] for i, (_, choices) in enumerate(groups) if len(choices) == 1}
    if len(named) <= MAX_BUTTONS:
        out = [Row("group_buttons", groups=named, direct=direct, selected=group)]
    else:
        # up to five one-choice groups get a row of their own buttons; any others stay in the group selects
        direct = dict(list(direct.items())[:MAX_BUTTONS])
        openable = [g for g in named if g[0] not in direct]
        room = budget - (1 if direct else 0) - 1  # keep a row for the opened group's choices
        out = [Row("groups", groups=openable[i:i + MAX_OPTIONS], selected=group)
               for i in range(0, len(openable), MAX_OPTIONS)][:max(1, room)]
        if direct:
            out.append(Row("buttons", list(direct.values())))
    if group is None or not 0 <= group < len(groups) or group in direct:
        return out
    name, choices = groups[group]
    rows = _rows_for(name, choices, name in panel.select_groups)
    space = budget - len(out)
    if len(rows) <= space:
        return out + rows
    per = space - 1  # one row for the pager
    pages = -(-len(rows) // per)
    page = max(0, min(page, pages - 1))
    return out + rows[page * per:(page + 1) * per] + [Row("pager", group=group, page=page, pages=pages)]


def clip(label: str, limit: int = MAX_LABEL) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"
