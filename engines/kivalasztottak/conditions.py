"""Quest, building and ally conditions.

A condition is a list of parts joined by "+"; every part must hold. A part has ``n`` (the "Nx" multiplier)
and one element: ``trait``, ``caste`` (main caste in capitals or sub-caste), ``skill`` with ``count`` (roman
numerals are summed over the whole group), ``attr``/``gt`` (a relation such as Physique>9, held by one
adventurer) and optionally ``named`` (only a named adventurer satisfies it). ``Nx`` needs N different
adventurers; one adventurer may serve several different parts (the rulebook does not forbid it).
"""

from __future__ import annotations

from collections.abc import Callable


def _matches(adv: dict, part: dict, attr: Callable[[dict, str], int]) -> bool:
    if part.get("named") and not adv["named"]:
        return False
    if "trait" in part and part["trait"] not in adv["traits"]:
        return False
    if "caste" in part and part["caste"] not in (adv["caste"], adv["subcaste"]):
        return False
    if "attr" in part and not attr(adv, part["attr"]) > part["gt"]:
        return False
    return True


def part_holds(part: dict, group: list[dict], attr: Callable[[dict, str], int]) -> bool:
    if "skill" in part:
        eligible = [a for a in group if not part.get("named") or a["named"]]
        total = sum(a["skills"].count(part["skill"]) for a in eligible)
        return total >= part.get("count", 1) * part.get("n", 1)
    return sum(1 for a in group if _matches(a, part, attr)) >= part.get("n", 1)


def holds(condition: dict, group: list[dict], attr: Callable[[dict, str], int]) -> bool:
    """True when ``group`` (adventurer descriptions: named, traits, caste, subcaste, skills, card id)
    fulfils every part of ``condition``."""
    return bool(group) and all(part_holds(p, group, attr) for p in condition["parts"])
