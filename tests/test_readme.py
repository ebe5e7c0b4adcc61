"""The README is for players and admins (issue 23): a quick start of two commands, then playing, then deploying;
the developers' material lives in docs/, linked from it, and every link between them leads somewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = sorted((ROOT / "docs").glob("*.md"))


def _headings(text: str, level: str = "## ") -> list[str]:
    out, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith(level):
            out.append(line[len(level):].strip())
    return out


def _anchor(title: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation gone, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def test_the_quick_start_is_the_two_set_up_commands():
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", quick, flags=re.S)
    assert block, "the quick start shows its commands"
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]
    assert commands == ["make run", "make test"]


def test_players_first_then_admins_then_developers():
    order = _headings(README)
    assert order[0] == "Quick start"
    playing, deploying, developers = (order.index(t) for t in ("Playing", "Settings", "For developers"))
    assert playing < deploying < developers
    assert order.index("Deploy with Docker (one process, SQLite)") > playing
    for moved in ("Architecture", "Performance", "Tests", "Bounded work", "Discord's limits", "Pictures on a phone"):
        assert moved not in order, f"{moved} is developers' material: docs/"


def test_every_developer_page_is_linked_from_the_readme():
    for page in DOCS:
        assert f"(docs/{page.name})" in README or f"(docs/{page.name}#" in README, page.name


def test_every_relative_link_leads_to_a_file_and_heading_that_exist():
    files = [ROOT / "README.md", *DOCS]
    broken = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            name, _, fragment = target.partition("#")
            dest = (path.parent / name).resolve() if name else path
            if not dest.exists():
                broken.append((path.name, target))
                continue
            if fragment and dest.suffix == ".md":
                anchors = {_anchor(h) for level in ("# ", "## ", "### ", "#### ")
                           for h in _headings(dest.read_text(encoding="utf-8"), level)}
                if fragment not in anchors:
                    broken.append((path.name, target))
    assert not broken, broken
