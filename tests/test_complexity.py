"""No function outside the tests is rated worse than D by radon's cyclomatic complexity (issue 23).

A block rated E or F (complexity over 30) is the long branching function a newcomer cannot hold in their head:
split it into small named functions or a dispatch table.
"""

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["ai", "bench", "cogs", "engines", "host", "render", "store", "tournaments", "web", "tools"]
TOP = ["bot.py", "settings.py"]


def _sources() -> list[Path]:
    files = [ROOT / name for name in TOP]
    for package in PACKAGES:
        files.extend(sorted((ROOT / package).rglob("*.py")))
    return files


def test_no_block_is_rated_worse_than_d():
    worse = [
        f"{path.relative_to(ROOT)}:{block.lineno} {block.fullname} {cc_rank(block.complexity)} ({block.complexity})"
        for path in _sources()
        for block in cc_visit(path.read_text(encoding="utf-8"))
        if cc_rank(block.complexity) in {"E", "F"}
    ]
    assert not worse, "blocks rated E or F by radon:\n" + "\n".join(worse)


def test_the_check_sees_a_long_branching_function():
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(40))
    source = f"def f(x):\n{branches}\n    return -1\n"
    (block,) = cc_visit(source)
    assert cc_rank(block.complexity) == "F"
