"""Pure fight arithmetic shared by the engine, the renderer and the AI.

The functions take the ``players`` list and fight dicts in the shape both the state and the view carry
(``player["hero"]``, ``player["attached"]``; fight ``{"kind", "cards": [{"card", "grow"}], "roaming", ...}``),
so an AI can evaluate hypothetical fights from its own view with exactly the engine's numbers.
"""

from __future__ import annotations

from .cards import HEROES, TYPES, card_type

BASE_HAND_LIMIT = 6


def hero_effects(player: dict, with_items: bool = True) -> list[dict]:
    """Passive effects of a hero's ability and (unless ignored) of its attached items and units."""
    effects = list(HEROES[player["hero"]]["ability"])
    if with_items:
        for cid in player["attached"]:
            effects.extend(card_type(cid).get("ability", []))
    return effects


def patron(player: dict) -> str:
    return HEROES[player["hero"]]["patron"]


def power(player: dict) -> int:
    """POWER: the hero's own plus items such as the Palladium."""
    total = HEROES[player["hero"]]["power"]
    for eff in hero_effects(player):
        if eff["op"] == "stat" and eff["stat"] == "power":
            total += eff["amount"]
    return total


def hand_limit(player: dict) -> int:
    return BASE_HAND_LIMIT + sum(e["amount"] for e in hero_effects(player, False) if e["op"] == "hand_limit")


def attach_cost(player: dict, card_key: str) -> int:
    """GP an item or Achaean unit costs this hero (Agamemnon pays less for units)."""
    card = TYPES[card_key]
    discount = sum(e["amount"] for e in hero_effects(player, False)
                   if e["op"] == "cost_discount" and e["kind"] == card["kind"])
    return max(0, card["cost"] - discount)


def plain_stat(player: dict, stat: str) -> int:
    """A hero's STRENGTH/TACTICS with unconditional bonuses only (what the table shows)."""
    total = HEROES[player["hero"]][stat]
    for eff in hero_effects(player):
        if eff["op"] == "stat" and eff["stat"] == stat and not ({"vs", "fight"} & set(eff)):
            total += eff["amount"]
    return total


def _fight_ok(eff: dict, kind: str) -> bool:
    return eff.get("fight") in (None, kind)


def card_effects(fight: dict) -> list[dict]:
    """Passive effects of the challenge cards in a fight that apply to its kind."""
    out = []
    for entry in fight.get("cards", []):
        for eff in card_type(entry["card"]).get("ability", []):
            if _fight_ok(eff, fight["kind"]):
                out.append(eff)
    return out


def opposing_kinds(fight: dict) -> set[str]:
    if fight.get("duel"):
        return {"achaean"}
    return {card_type(e["card"])["kind"] for e in fight.get("cards", [])}


def items_ignored(fight: dict) -> bool:
    return any(e["op"] == "ignore_items" for e in card_effects(fight))


def combined(fight: dict) -> bool:
    return any(card_type(e["card"])["kind"] == "unit" for e in fight.get("cards", []))


def mod_bonus(mods: list[dict], side: str, kind: str) -> int:
    """Modifier cards (Phalanx, Ambush, ...) added to the challenge that apply to this fight."""
    total = 0
    for entry in mods:
        card = card_type(entry["card"])
        if card["side"] == side and card.get("fight") in (None, kind):
            total += card["amount"]
    return total


def hero_base(player: dict, fight: dict, opponent: dict | None = None) -> int:
    """A hero's stat in a fight before fate: card value, ability and item bonuses whose conditions hold."""
    kind = fight["kind"]
    with_items = not (items_ignored(fight) and not fight.get("duel"))
    total = HEROES[player["hero"]][kind]
    against = opposing_kinds(fight)
    for eff in hero_effects(player, with_items):
        if eff["op"] != "stat" or eff["stat"] != kind or not _fight_ok(eff, kind):
            continue
        if "vs" in eff and not (set(eff["vs"]) & against):
            continue
        total += eff["amount"]
    return total


def challenge_base(fight: dict, target: dict) -> int:
    """The Trojan side's stat before fate: the cards' values (summed in a battle), growth and abilities."""
    kind = fight["kind"]
    total = 0
    is_combined = combined(fight)
    for entry in fight.get("cards", []):
        card = card_type(entry["card"])
        total += card.get(kind) or 0
        total += entry.get("grow", 0)
        for eff in card.get("ability", []):
            if eff["op"] != "stat" or eff["stat"] != kind or not _fight_ok(eff, kind):
                continue
            if eff.get("combined") and not is_combined:
                continue
            if eff.get("roaming") and not fight.get("roaming"):
                continue
            if "vs_patron" in eff and patron(target) != eff["vs_patron"]:
                continue
            total += eff["amount"]
    return total


def bases(players: list[dict], fight: dict, mods: list[dict]) -> dict[str, int]:
    """Both sides' values before fate for a challenge fight or an Achaean duel."""
    defender = players[fight["defender"]]
    if fight.get("duel"):
        attacker = players[fight["attacker"]]
        return {"attacker": hero_base(attacker, fight), "defender": hero_base(defender, fight)}
    kind = fight["kind"]
    return {"attacker": challenge_base(fight, defender) + mod_bonus(mods, "attacker", kind),
            "defender": hero_base(defender, fight) + mod_bonus(mods, "defender", kind)}


def fate_value(fight: dict, side: str) -> int:
    """Fate for one side: its fate card plus extra fate cards (wrath of Ares, Hera's Intrigue). The book draws
    one fate card per side, always; only version-1 Cerberus (games begun under rules version 1) drew two and
    kept the better."""
    cards = fight["fate"][side]
    best = max((c["face"] for c in cards), default=0)
    return best + sum(c["face"] for c in fight["extra"][side])


def totals(players: list[dict], fight: dict, mods: list[dict]) -> dict[str, int]:
    """Final totals (base + fate + intervention/wrath modifiers)."""
    base = bases(players, fight, mods)
    return {side: base[side] + fate_value(fight, side) + fight["mod"][side] for side in ("attacker", "defender")}


def tie_winner(players: list[dict], fight: dict) -> str | None:
    """Which side a tie goes to (Ajax, Deiphobus, the Sphinx), or None when nobody or both claim it."""
    kind = fight["kind"]
    with_items = not (items_ignored(fight) and not fight.get("duel"))  # Bronze Armour is an item
    defender = any(e["op"] == "tie_wins" and _fight_ok(e, kind)
                   for e in hero_effects(players[fight["defender"]], with_items))
    if fight.get("duel"):
        attacker = any(e["op"] == "tie_wins" and _fight_ok(e, kind) for e in hero_effects(players[fight["attacker"]]))
    else:
        attacker = any(e["op"] == "tie_wins" for e in card_effects(fight))
    if defender == attacker:
        return None
    return "defender" if defender else "attacker"


def single_kind(card_key: str) -> str:
    """A challenge fighting alone: a duel on STRENGTH if it has any, else a battle on TACTICS."""
    return "strength" if TYPES[card_key].get("strength") else "tactics"


def compose(entries: list[dict]) -> list[list[dict]]:
    """Split an ordered list of challenge entries into fights.

    With at least one Trojan unit, every unit and Trojan hero joins one TACTICS battle (at the position of
    its first card); beasts always fight alone; without units each Trojan hero duels alone. Fights keep the
    order the cards were played in.
    """
    has_unit = any(card_type(e["card"])["kind"] == "unit" for e in entries)
    groups: list[list[dict]] = []
    battle: list[dict] | None = None
    for entry in entries:
        kind = card_type(entry["card"])["kind"]
        if has_unit and kind in ("unit", "trojan"):
            if battle is None:
                battle = []
                groups.append(battle)
            battle.append(entry)
        else:
            groups.append([entry])
    return groups


def group_kind(group: list[dict]) -> str:
    if len(group) > 1 or card_type(group[0]["card"])["kind"] == "unit":
        return "tactics"
    return single_kind(card_type(group[0]["card"])["key"])


def glory_of(fight: dict) -> int:
    """Glory a hero gains by beating this fight's cards (summed for a battle)."""
    return sum(card_type(e["card"])["glory"] for e in fight.get("cards", []))


def win_bonus(player: dict, fight: dict) -> int:
    """Extra Glory a hero's ability adds when he wins this fight (Achilles)."""
    against = opposing_kinds(fight)
    return sum(e["amount"] for e in hero_effects(player, False)
               if e["op"] == "glory_on_win" and _fight_ok(e, fight["kind"])
               and ("vs" not in e or set(e["vs"]) & against))


def hero_loss(player: dict, fight: dict) -> int:
    """GP a beaten hero loses: the GLORY printed on his hero card, whatever the opponent (book §3.3).

    No card of the current set changes it. The version-1 cards that did (Hector and the Chimera added to
    it, Bronze Armour lowered it, at least 1) are kept for games begun under rules version 1."""
    loss = HEROES[player["hero"]]["glory"]
    loss -= sum(e["amount"] for e in hero_effects(player) if e["op"] == "loss_reduction")
    if not fight.get("duel"):
        loss += sum(e["amount"] for e in card_effects(fight) if e["op"] == "extra_loss")
    return max(1, loss)
