"""Hector and Achilles on Discord: labels for its actions, narration of its events, prompts."""

from __future__ import annotations

from engines.hector_achilles.data import COLOURS, TROOPS
from host.panels import Choice
from host.presenters import Presenter

EMOJI = {"red": "🟥", "green": "🟩", "blue": "🟦", "yellow": "🟨", "purple": "🟪", "brown": "🟫"}
KIND = {"slinger": "slinger", "archer": "archer", "spearman": "spearman", "hoplite": "hoplite"}
DECK = {"1": "deck 1", "2": "deck 2", "3": "deck 3", "home": "the home deck"}
REASONS = {"front_decks_lost": "all three front decks of the enemy are gone",
           "home_deck_exhausted": "the enemy's home deck ran short",
           "no_troops": "the enemy has no troops left", "draw": "both armies collapsed in a tied battle"}


def colour(key: str) -> str:
    return COLOURS[key]["en"]


def card(face: dict) -> str:
    """"red 3 (spearman)" from a troop face {colour, strength, kind}."""
    return f"{colour(face['colour'])} {face['strength']} ({KIND.get(face['kind'], face['kind'])})"


def short(face: dict) -> str:
    return f"{colour(face['colour']).capitalize()} {face['strength']}"


def hero(face: dict) -> str:
    return f"{face['name']} ({colour(face['colour'])} {face['value']})"


def deck(key: str) -> str:
    return DECK.get(str(key), f"deck {key}")


class HectorAchillesPresenter(Presenter):
    game = "hector-achilles"
    seat_labels = ["Achaeans", "Trojans"]

    def describe(self, view: dict, action: dict, index: int) -> Choice:
        kind = action["type"]
        if kind == "take_vanguard":
            size = view["sides"][view["seat"]]["decks"][action["deck"]]["size"]
            return Choice(index, f"Vanguard from {deck(action['deck'])} ({size} cards)", "Vanguard")
        if kind == "choose_active":
            return Choice(index, f"Fight with {deck(action['deck'])}", "Call the decks", style="primary")
        if kind == "orient_fate":
            colours = view["fate"]["colours"]
            i = colours.index(action["colour"])
            them = colours[(i + 2) % 4]
            return Choice(index, f"{colour(action['colour']).capitalize()} to me, {colour(them)} to them",
                          "Lay the fate tile", emoji=EMOJI[action["colour"]])
        if kind == "rotate_fate":
            facing = view["fate"]["after_" + action["direction"]]
            me = view["seat"]
            word = "clockwise" if action["direction"] == "cw" else "counter-clockwise"
            return Choice(index, f"Turn {word}: {colour(facing[me])} to me, {colour(facing[1 - me])} to them",
                          "Turn the fate tile", emoji="↻" if action["direction"] == "cw" else "↺")
        if kind == "save_hero":
            return Choice(index, "Save my hero (spend a favour token)", "Your hero", style="success")
        if kind == "abandon_hero":
            return Choice(index, "Let my hero go", "Your hero")
        if kind == "play":
            face = TROOPS[action["card"]]
            return Choice(index, f"Play {card(face)}", "Play a troop", style="primary", secret=True,
                          emoji=EMOJI[face["colour"]])
        if kind == "swap_card":
            face = TROOPS[action["card"]]
            return Choice(index, f"Swap away {short(face)}", "Swap a troop (discarded for good)", secret=True,
                          emoji=EMOJI[face["colour"]])
        if kind == "swap_hero":
            return Choice(index, "Swap my hero", "Hero", secret=True)
        if kind == "play_hero":
            held = view.get("hand_hero") or {}
            face = TROOPS[action["on"]]
            return Choice(index, f"{held.get('name', 'Hero')} onto {short(face)}", "Hero", style="success",
                          secret=True, emoji=EMOJI[face["colour"]])
        if kind == "reinforce":
            face = TROOPS[action["on"]]
            return Choice(index, f"Favour token on {short(face)} (+1)", "Reinforce", secret=True,
                          emoji=EMOJI[face["colour"]])
        if kind == "retreat":
            return Choice(index, "Retreat (lose this battle)", "Retreat", style="danger", secret=True)
        if kind == "pass":
            return Choice(index, "Pass (no troop in hand)", "Play a troop", secret=True)
        return super().describe(view, action, index)

    def prompt(self, view: dict) -> str:
        decision = view.get("decision") or {}
        kind = decision.get("kind")
        rnd = view.get("round")
        if kind == "take_vanguard":
            return f"battle {view['battle']}: take your vanguard — pick the deck to draw it from."
        if kind == "choose_active":
            return "your vanguard is a 4: call the decks that fight."
        if kind == "orient_fate":
            return "lay the fate tile: pick the colour that faces you."
        if kind == "optional_or_play":
            return (f"round {rnd}/4: play a troop — first you may swap a card or your hero, play your hero, "
                    "reinforce or retreat.")
        if kind == "play":
            return f"round {rnd}/4: now play a troop."
        if kind == "rotate_fate":
            return "your army is stronger: turn the fate tile a quarter turn."
        if kind == "save_hero":
            side = view["sides"][view["seat"]] if view.get("seat") is not None else None
            name = side["hero"]["name"] if side and side.get("hero") else "your hero"
            return f"you lost the battle: spend a Divine Favour token to save {name}?"
        return "choose your action."

    def narrate(self, event: dict, names: list[str]) -> str | None:
        kind = event["type"]

        def who(seat: int | None) -> str:
            return f"**{names[seat]}**" if seat is not None and seat < len(names) else "?"

        if kind == "battle_started":
            return f"⚔️ **Battle {event['battle']}** — {who(event['attacker'])} attacks."
        if kind == "vanguard_taken":
            return f"{who(event['seat'])} takes a vanguard from {deck(event['deck'])}: {card(event['card'])}."
        if kind == "deck_chosen":
            return f"{who(event['seat'])} calls {deck(event['deck'])}."
        if kind == "active_decks":
            parts = [f"{who(s)} with {deck(d)}" for s, d in enumerate(event["decks"])]
            return "Fighting: " + ", ".join(parts) + "."
        if kind == "fate_oriented":
            f = event["facing"]
            return f"Fate tile: {colour(f[0])} faces {who(0)}, {colour(f[1])} faces {who(1)}."
        if kind == "vanguard_revealed":
            return f"{who(event['seat'])}'s vanguard: {card(event['card'])}." if event.get("card") else None
        if kind == "card_swapped":
            return f"{who(event['seat'])} swaps a troop."
        if kind == "hero_swapped":
            return f"{who(event['seat'])} swaps their hero."
        if kind == "hero_played":
            return f"{who(event['seat'])} plays the hero {hero(event['hero'])} onto {card(event['on'])}."
        if kind == "reinforced":
            return f"{who(event['seat'])} puts a Divine Favour token on {card(event['on'])} (+1)."
        if kind == "card_played":
            return f"{who(event['seat'])} plays {card(event['card'])}."
        if kind == "passed":
            return f"{who(event['seat'])} has no troop to play."
        if kind == "fate_phase":
            t = event["totals"]
            tail = (f"{who(event['rotator'])} must turn the fate tile." if event.get("rotator") is not None
                    else "equal: the fate tile stays.")
            return f"Round {event['round']} strength: {t[0]} – {t[1]}; {tail}"
        if kind == "fate_rotated":
            f = event["facing"]
            word = "clockwise" if event["direction"] == "cw" else "counter-clockwise"
            return (f"{who(event['seat'])} turns the tile {word}: {colour(f[0])} faces {who(0)}, "
                    f"{colour(f[1])} faces {who(1)}.")
        if kind == "heroes_revealed":
            shown = [f"{who(s)}: {hero(h)}" for s, h in enumerate(event["heroes"]) if h]
            return ("Heroes revealed — " + ", ".join(shown) + ".") if shown else None
        if kind == "battle_scored":
            s = event["scores"]
            if event["winner"] is None:
                return f"Score {s[0]} – {s[1]}: a tie; everything goes back."
            return f"Score {s[0]} – {s[1]}: {who(event['winner'])} wins the battle!"
        if kind == "retreated":
            return f"🏳️ {who(event['seat'])} retreats: the battle is lost."
        if kind == "hero_in_danger":
            return f"{who(event['seat'])} may spend a Divine Favour token to save {hero(event['hero'])}."
        if kind == "hero_saved":
            return f"{who(event['seat'])} spends a Divine Favour token: {event['hero']['name']} is saved."
        if kind == "hero_lost":
            return f"{who(event['seat'])} loses the hero {event['hero']['name']}."
        if kind == "shame_losses":
            return f"{who(event['seat'])} loses {event['count']} more troop(s) for shame."
        if kind == "shame_taken":
            return f"{who(event['seat'])} takes a Shame token ({event['shame']}/3)."
        if kind == "battle_ended":
            lost = event.get("troops_lost") or [0, 0]
            return f"Troops lost in this battle: {who(0)} {lost[0]}, {who(1)} {lost[1]}."
        if kind == "deck_eliminated":
            return f"{who(event['seat'])}'s {deck(event['deck'])} is eliminated."
        if kind == "fate_reshuffled":
            return "All fate tiles are reshuffled into a new stack."
        if kind == "game_over":
            if event["winner"] is None:
                return "🤝 The war ends in a draw."
            return f"🏆 {who(event['winner'])} wins the war: {REASONS.get(event['reason'], event['reason'])}."
        return None

    def result_lines(self, result: dict, names: list[str]) -> list[str]:
        won = result.get("battles_won", [0, 0])
        lines = [f"{names[s]} ({self.seat_label(s)}): {result['scores'][s]} troops left, {won[s]} battles won"
                 for s in (0, 1)]
        if result.get("winner") is None:
            return ["The war ends in a draw.", *lines]
        return [f"Winner: {names[result['winner']]} ({self.seat_label(result['winner'])}).", *lines]


PRESENTER = HectorAchillesPresenter()
