"""A heuristic Hector and Achilles player that decides from its own view and the legal actions only.

The core is :func:`estimate`, a rough final-score margin for the battle in progress: every troop still in
hand will be played (so it counts when its colour scores), the opponent's unseen cards are worth an average,
an unplayed enemy hero is averaged over the heroes he may hold, and the fate tile ends on the colour pair
given by the parity of the fate phases still to come, the stronger army choosing the colour within it.

Decisions built on it:

* vanguard from the biggest front deck; after a 4, the deck number where we are strong and the enemy weak
  (an enemy fighting from a short home deck may lose the game);
* the fate tile laid with the vanguard's colour facing us;
* turning the tile toward the better margin (only the last turn of a battle decides the colour, and the
  greedy choice is right whenever no later turn follows);
* the hero played over the played card that costs least (ideally an off-colour slinger), unless the battle
  looks lost and the hero would die with it; reinforcing scoring cards when the battle is close or won,
  keeping a token to save the hero; swapping a hero whose colour does not fit the army;
* retreat when the battle is hopeless early; never the swap-card action (it costs a troop for good);
* off-colour, weak troops played first, so the hero has something cheap to cover and strong colours stay
  hidden.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.hector_achilles import rotate
from engines.hector_achilles.data import HEROES, SIDES

GAME = "hector-achilles"

UNSEEN_CARD_SCORE = 0.9  # average score of an unseen troop: 2.5 strength x ~1/3 chance of a scoring colour
UNSEEN_CARD_STRENGTH = 2.5


def _uncovered(cards: list[dict]) -> list[dict]:
    return [c for c in cards if not c["covered"]]


def _points(cards: list[dict], colours: set[str]) -> int:
    return sum(c["strength"] + (1 if c["token"] else 0) for c in _uncovered(cards) if c["colour"] in colours)


def _strength(cards: list[dict]) -> int:
    return sum(c["strength"] + (1 if c["token"] else 0) for c in _uncovered(cards))


def _as_played(cards: list[dict]) -> list[dict]:
    return [{"colour": c["colour"], "strength": c["strength"], "token": False, "covered": False} for c in cards]


class Battle:
    """What the seat knows about the battle in progress, in the shape the estimate needs."""

    def __init__(self, view: dict, seat: int) -> None:
        self.seat = seat
        self.view = view
        me, opp = view["sides"][seat], view["sides"][1 - seat]
        self.me, self.opp = me, opp
        self.played = [dict(c) for c in me["played"]]
        self.opp_played = [dict(c) for c in opp["played"]]
        self.hand = list(view.get("hand") or [])
        self.hand_hero = view.get("hand_hero")
        self.hero = me["hero"]  # played hero or None
        self.opp_hero = opp["hero"]
        fate = view.get("fate") or {}
        self.tile = fate.get("colours")
        self.orientation = fate.get("orientation", 0)
        self.round = view.get("round") or 1
        side_key = SIDES[1 - seat]["key"]
        lost = {h["name"] for h in opp["lost_heroes"]}
        played_name = self.opp_hero["name"] if self.opp_hero else None
        # heroes the opponent may be holding: his side's heroes that are neither lost nor on the table
        self.opp_candidates = [h for h in HEROES.values() if h["side"] == side_key and h["name"] not in lost
                               and h["name"] != played_name]

    def my_hero_colour(self) -> str | None:
        hero = self.hero or self.hand_hero
        return hero["colour"] if hero else None

    def facing(self, orientation: int, seat: int) -> str:
        assert self.tile is not None, "a battle's Fate tile is drawn before anyone faces it"
        return self.tile[(orientation + 2 * seat) % 4]

    def my_score(self, colour: str, played=None, hero=None, hand=None) -> float:
        played = self.played if played is None else played
        hero = self.hero if hero is None else hero
        hand = self.hand if hand is None else hand
        scoring = {colour}
        scorer = hero or self.hand_hero
        if scorer:
            scoring.add(scorer["colour"])
        total = _points(played, scoring) + sum(c["strength"] for c in hand if c["colour"] in scoring)
        return total + (hero["value"] if hero else 0)

    def opp_score(self, colour: str) -> float:
        total = _points(self.opp_played, {colour}) + self.opp["hand_size"] * UNSEEN_CARD_SCORE
        if self.opp_hero:
            total += self.opp_hero["value"] + _points(self.opp_played, {self.opp_hero["colour"]} - {colour})
        elif self.opp["has_hero"] and self.opp_candidates:
            extra = [_points(self.opp_played, {h["colour"]} - {colour}) for h in self.opp_candidates]
            total += sum(extra) / len(extra)
        return total

    def my_strength(self, played=None, hero=None, hand=None) -> float:
        played = self.played if played is None else played
        hero = self.hero if hero is None else hero
        hand = self.hand if hand is None else hand
        return _strength(played) + (hero["value"] if hero else 0) + sum(c["strength"] for c in hand)

    def opp_strength(self) -> float:
        hero = self.opp_hero["value"] if self.opp_hero else 0
        return _strength(self.opp_played) + hero + self.opp["hand_size"] * UNSEEN_CARD_STRENGTH


def estimate(b: Battle, orientation: int | None = None, remaining: int | None = None, played=None,
             hero=None, hand=None) -> float:
    """Expected (my score - enemy score) at the victory check. ``remaining``: fate phases still to come;
    ``played``/``hero``/``hand`` replace the seat's own cards to weigh a move before making it."""
    if not b.tile:
        return 0.0
    o = b.orientation if orientation is None else orientation
    if remaining is None:
        remaining = 4 - b.round + 1
    me, opp = b.seat, 1 - b.seat

    def margin(orient: int) -> float:
        return b.my_score(b.facing(orient, me), played, hero, hand) - b.opp_score(b.facing(orient, opp))

    if remaining == 0:
        return margin(o)
    # each turn moves the tile to the other pair of opposite edges; the last turn picks the colour
    base = o if remaining % 2 == 0 else o + 1
    options = [margin(base), margin(base + 2)]
    mine, theirs = b.my_strength(played, hero, hand), b.opp_strength()
    if mine > theirs + 1:
        return max(options)
    if theirs > mine + 1:
        return min(options)
    return sum(options) / 2


# ------------------------------------------------------------------------------------------------ decisions

def _take_vanguard(view: dict, seat: int, legal: list[dict]) -> dict:
    decks = view["sides"][seat]["decks"]

    def value(action):
        size = decks[action["deck"]]["size"]
        return size - (6 if action["deck"] == "home" else 0)

    return max(legal, key=value)


def _choose_active(view: dict, seat: int, legal: list[dict]) -> dict:
    me, opp = view["sides"][seat], view["sides"][1 - seat]

    def resolved(side, key):
        deck = side["decks"][key]
        return key if key != "home" and not deck["eliminated"] and deck["size"] else "home"

    def value(action):
        key = action["deck"]
        mine, theirs = resolved(me, key), resolved(opp, key)
        my_size, their_size = me["decks"][mine]["size"], opp["decks"][theirs]["size"]
        v = my_size - their_size
        if mine == "home" and my_size < 12:
            v -= 10  # a lost home battle with a short home deck loses the game
        if theirs == "home" and their_size < 12:
            v += 10
        if theirs != "home" and their_size < 10:
            v += 4  # a loss there eliminates that front deck
        return v

    return max(legal, key=value)


def _orient(view: dict, seat: int, legal: list[dict]) -> dict:
    vanguard = next((c for c in view["sides"][seat]["played"] if c["vanguard"]), None)
    for action in legal:
        if vanguard and action["colour"] == vanguard["colour"]:
            return action
    return legal[0]


def _rotate(b: Battle, legal: list[dict]) -> dict:
    remaining = 4 - b.round

    def value(action):
        return estimate(b, rotate(b.orientation, action["direction"]), remaining)

    return max(legal, key=value)


def _save(view: dict, seat: int, legal: list[dict]) -> dict:
    side = view["sides"][seat]
    hero = side["hero"]
    if (hero and hero["value"] >= 4) or side["favour"] >= 2:
        return {"type": "save_hero"}
    return {"type": "abandon_hero"}


def _hero_fit(b: Battle, hero: dict) -> float:
    cards = b.played + _as_played(b.hand)
    return _points(cards, {hero["colour"]}) + hero["value"] * 0.5


def _optional(b: Battle, legal: list[dict]) -> dict | None:
    """An optional action worth taking before the card played (retreat, hero, reinforcement, hero swap), or
    None: the first of :data:`_OPTIONS` whose action is legal and that finds one."""
    types = {a["type"] for a in legal}
    now = estimate(b)
    for kind, option in _OPTIONS:
        if kind in types:
            action = option(b, legal, now)
            if action is not None:
                return action
    return None


def _retreat(b: Battle, legal: list[dict], now: float) -> dict | None:
    # hopeless battles cost fewer troops when left early
    if b.round <= 3 and b.me["shame"] <= 1 and now <= -9:
        return {"type": "retreat"}
    return None


def _play_hero(b: Battle, legal: list[dict], now: float) -> dict | None:
    """The hero on the card it gains most from covering, if the gain is worth it now rather than later."""
    if not b.hand_hero:
        return None
    best, best_gain, best_after = None, 0.0, 0.0
    for action in (a for a in legal if a["type"] == "play_hero"):
        slot = next(i for i, c in enumerate(b.played) if c.get("id") == action["on"])
        played = [dict(c, covered=(i == slot) or c["covered"]) for i, c in enumerate(b.played)]
        after = estimate(b, played=played, hero=b.hand_hero)
        gain = after - now
        if best is None or gain > best_gain:
            best, best_gain, best_after = action, gain, after
    threshold = 1.5 if b.round <= 2 else 0.5
    if (best is not None and best_gain >= threshold and best_gain >= _later_cover(b) - 1
            and (best_after > -3 or best_after > 0 > now)):
        return best
    return None


def _later_cover(b: Battle) -> float:
    """The hero's best gain from covering a card still in hand, once played (a cheaper cover later: it will
    be played in any case)."""
    later = 0.0
    if b.round <= 3:
        for card in b.hand:
            rest = [c for c in b.hand if c is not card]
            played = [*b.played, dict(_as_played([card])[0])]
            base = estimate(b, played=played, hand=rest)
            covered = [*b.played, dict(_as_played([card])[0], covered=True)]
            later = max(later, estimate(b, played=covered, hero=b.hand_hero, hand=rest) - base)
    return later


def _reinforce(b: Battle, legal: list[dict], now: float) -> dict | None:
    """A scoring card reinforced (the hero's colour first) while favour is to spare and the battle is
    close."""
    hero_colour = b.my_hero_colour()
    scoring = {b.facing(b.orientation, b.seat)}
    if hero_colour:
        scoring.add(hero_colour)
    by_id = {c.get("id"): c for c in b.played}
    good = [a for a in legal if a["type"] == "reinforce" and by_id[a["on"]]["colour"] in scoring]
    good.sort(key=lambda a: by_id[a["on"]]["colour"] != hero_colour)
    favour = b.me["favour"]
    if good and ((favour >= 2 and now >= -1) or (favour >= 1 and now >= 3)):
        return good[0]
    return None


def _swap_hero(b: Battle, legal: list[dict], now: float) -> dict | None:
    """The hero in hand swapped early when the side's other heroes fit the battle clearly better on
    average."""
    if not b.hand_hero or b.round > 3:
        return None
    mine = _hero_fit(b, b.hand_hero)
    side_key = SIDES[b.seat]["key"]
    lost = {h["name"] for h in b.me["lost_heroes"]}
    others = [h for h in HEROES.values() if h["side"] == side_key and h["name"] not in lost
              and h["name"] != b.hand_hero["name"]]
    if others and sum(_hero_fit(b, h) for h in others) / len(others) > mine + 1.5:
        return {"type": "swap_hero"}
    return None


#: the optional actions in the order they are weighed: (action type, rule)
_OPTIONS: tuple[tuple[str, Callable[[Battle, list[dict], float], dict | None]], ...] = (
    ("retreat", _retreat), ("play_hero", _play_hero), ("reinforce", _reinforce), ("swap_hero", _swap_hero))


def _play(b: Battle, legal: list[dict]) -> dict:
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        return next(a for a in legal if a["type"] == "pass")
    hero_colour = b.my_hero_colour()
    tile = set(b.tile or [])
    by_id = {c["id"]: c for c in b.hand}

    def keep_value(action):
        card = by_id[action["card"]]
        weight = 2.0 if card["colour"] == hero_colour else 1.0 if card["colour"] in tile else 0.4
        return card["strength"] * weight

    return min(plays, key=keep_value)


def choose(engine, state, seat: int, rng) -> dict:
    """Pick one of ``engine.legal_actions(state, seat)`` from the seat's own view."""
    view = engine.view(state, seat)
    legal = view.get("legal") or engine.legal_actions(state, seat)
    kind = view["decision"]["kind"]
    if kind == "take_vanguard":
        return _take_vanguard(view, seat, legal)
    if kind == "choose_active":
        return _choose_active(view, seat, legal)
    if kind == "orient_fate":
        return _orient(view, seat, legal)
    if kind == "save_hero":
        return _save(view, seat, legal)
    b = Battle(view, seat)
    if kind == "rotate_fate":
        return _rotate(b, legal)
    if kind == "optional_or_play":
        action = _optional(b, legal)
        if action is not None:
            return action
    return _play(b, legal)
