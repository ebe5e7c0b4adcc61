"""Panels always fit Discord's component limits, whatever the number of choices."""

from host.panels import MAX_OPTIONS, Choice, Panel, layout


def panel(groups: dict[str, int], two_step: bool = False) -> Panel:
    choices, i = [], 0
    for name, count in groups.items():
        for _ in range(count):
            choices.append(Choice(i, f"{name} choice {i}", name))
            i += 1
    return Panel(1, 3, 0, "choose", choices, two_step=two_step)


def check(rows, budget=5):
    assert len(rows) <= budget
    for row in rows:
        assert len(row.choices) <= (5 if row.kind == "buttons" else MAX_OPTIONS)
        assert len(row.groups) <= (5 if row.kind == "group_buttons" else MAX_OPTIONS)


def test_small_panels_are_one_row_per_group():
    rows = layout(panel({"Play": 4, "Swap": 3, "Retreat": 1}))
    assert [r.kind for r in rows] == ["buttons", "buttons", "buttons"]
    check(rows)


def test_big_groups_become_selects():
    rows = layout(panel({"Play": 5, "Destinations": 30}))
    assert [r.kind for r in rows] == ["buttons", "select", "select"]
    assert [len(r.choices) for r in rows] == [5, 25, 5]


def test_two_step_shows_groups_then_the_chosen_group():
    p = panel({"Card 2": 1, "Card 4": 3, "Card 6": 7}, two_step=True)
    first = layout(p, reserved_rows=1)
    assert [r.kind for r in first] == ["group_buttons"]
    assert first[0].groups == [(0, "Card 2"), (1, "Card 4"), (2, "Card 6")]
    assert first[0].direct == {0: p.choices[0]}, "a one-choice group is its choice's own button"
    opened = layout(p, reserved_rows=1, group=2)
    assert [r.kind for r in opened] == ["group_buttons", "select"] and opened[0].selected == 2
    assert {c.index for c in opened[1].choices} == set(range(4, 11))


def test_many_groups_use_a_group_select_and_huge_groups_are_paged():
    p = panel({f"Field {i}": (150 if i == 0 else 2) for i in range(9)})
    first = layout(p)
    assert [r.kind for r in first] == ["groups"] and len(first[0].groups) == 9
    page0 = layout(p, group=0)
    assert [r.kind for r in page0] == ["groups", "select", "select", "select", "pager"]
    assert page0[-1].pages == 2 and page0[-1].page == 0
    seen = {c.index for r in page0 for c in r.choices}
    page1 = layout(p, group=0, page=1)
    seen |= {c.index for r in page1 for c in r.choices}
    assert seen == set(range(150)), "every choice is reachable through the pages"
    check(page0)
    check(page1)
    assert layout(p, group=0, page=99)[-1].page == 1  # a stale page number is clamped


def test_one_choice_groups_are_direct_buttons_also_beside_a_group_select():
    p = panel({**{f"Field {i}": 3 for i in range(7)}, "Pass": 1}, two_step=True)
    rows = layout(p, reserved_rows=1)
    assert [r.kind for r in rows] == ["groups", "buttons"]
    assert [name for _, name in rows[0].groups] == [f"Field {i}" for i in range(7)]
    assert [c.label for c in rows[1].choices] == ["Pass choice 21"]
    opened = layout(p, reserved_rows=1, group=3)
    assert [r.kind for r in opened] == ["groups", "buttons", "buttons"]
    check(opened, budget=4)


def test_split_selects_say_which_part_of_the_list_they_hold():
    rows = layout(panel({"To": 30}))
    assert [r.placeholder for r in rows] == ["To: To choice 0 … To choice 24", "To: To choice 25 … To choice 29"]


def test_every_choice_stays_reachable_with_many_one_choice_groups():
    p = panel({**{f"Solo {i}": 1 for i in range(8)}, "Big": 40}, two_step=True)
    reachable = set()
    first = layout(p, reserved_rows=1)
    check(first, budget=4)
    reachable |= {c.index for r in first for c in r.choices}
    for index, _ in first[0].groups:
        opened = layout(p, reserved_rows=1, group=index)
        check(opened, budget=4)
        reachable |= {c.index for r in opened for c in r.choices}
        for page in range(1, 4):
            reachable |= {c.index for r in layout(p, reserved_rows=1, group=index, page=page) for c in r.choices}
    assert reachable == set(range(48))


def test_more_than_25_groups_get_several_group_selects():
    p = panel({f"Card {i}": 2 for i in range(40)}, two_step=True)
    rows = layout(p, reserved_rows=1)
    assert [r.kind for r in rows] == ["groups", "groups"]
    assert sum(len(r.groups) for r in rows) == 40
    opened = layout(p, reserved_rows=1, group=33)
    assert [r.kind for r in opened] == ["groups", "groups", "buttons"]
    assert {c.index for c in opened[-1].choices} == {66, 67}
