"""Ave Caesar: chariot races over three laps with 24-card movement decks, Caesar's alley and championships.

Rules follow the original rulebook (``shared/seeds/002_...``) and the digest (``shared/rules/ave-caesar.md``).
Where the two differ the original wins; where both are silent a decision is documented next to the code:

* Start grid: I-III in the row touching the finish line, IV-VI one row behind; the first crossing starts lap 1
  and the fourth crossing ends lap 3 (the race).
* Turn order is per chariot (the book gives a player no choice of which of his chariots moves): the chariot on
  start space I, then table order (owned chariots interleaved by seat, then neutral ones).
* Leader = racing chariot with the shortest remaining route (laps first, then distance to the line). A chariot
  alone on the track leads nobody, so the 6-ban needs at least two racing chariots.
* Caesar's alley: a move that enters the alley must end in it (the book: go in and stop); an unpaid chariot
  salutes and pays on arrival and drives out on later turns. The book asks for a visit "at least once", so a
  chariot that has paid may enter again, and neutral chariots may too (they need not: their policy drives
  past). ORIGINAL OVER DIGEST: in lap 2 an unpaid chariot that finds the entrance (access space or first alley
  space) blocked by another chariot waits: no move may take it where the alley can no longer be reached before
  the line (``Track.alley_reach``: not past the gate, nor into a lane walled off from the access space). When
  the entrance is free such a move is allowed but flagged (``misses_alley``), and a chariot that has not paid
  at the end of lap 2 is disqualified when it crosses the line (taken off the track).
* Neutral chariots take the start spaces left after the players' chariots and turn no card for the start.
* A chariot finishing (fourth crossing) leaves the track, so it never blocks the rest of the field.
* Laurels 6/4/3/2/1/0 go to the players' chariots in crossing order; neutral chariots race and block but take
  no place (they are "bottlenecks and blockers" in the book, not competitors).
* A race ends when no player's chariot is racing any more. If a whole round passes in which nothing on the
  track can change (everybody skips), the race is stopped: the chariots still racing score nothing.
* Exception 1 of the 6-ban (a leader on a bottleneck holding three 6s) also covers a leader whose deck is used
  up and whose last one or two cards are all 6s: the book's "three" is a full hand.
* Exception 2 of the 6-ban ("two leaders side by side, each holding only 6s, blocking those behind") is read
  as: every chariot tied for the lead holds only 6s and no other chariot can get past them (no free way to the
  spaces in front of them); then the tied leader whose turn it is may play a 6.

Options (``new_game(num_players, seed, options)``, 2-6 players): ``chariots_per_player`` 1-3 (default 3 for
2 players, 2 for 3, else 1; 1 when ``neutral_chariots``), ``races`` 1-4 (default 4, the book's game), ``neutral_chariots``
bool (default False: unowned chariots fill the free start spaces up to six), ``turn_order`` "seat" (default:
the last-placed chariot of the previous race starts) or "previous_results" (the book's variant: the previous
race's winner on start space I, second on II, ...), ``track`` "A" or "B" (default "A": the first race's track;
the second race uses the other, races 3 and 4 repeat both counter-clockwise), ``neutral_vote`` bool (default
False; needs ``neutral_chariots``): see below.

One action type: ``{"type": "move", "chariot": c, "card": value, "to": space_id}``. ``choices(state, c)`` (also
in the acting seat's view) numbers the destinations from 1 and lists the cards and paths reaching each.

Neutral chariots by vote (``neutral_vote``). The book: a neutral chariot moves in its own interest and to the
opponents' harm, and "Ha nincs egyetértés, hogy miként mozogjon, a játékosok többségének véleménye fog
dönteni" - where the players disagree, the majority decides. With the option, a neutral chariot whose turned
card leaves more than one space is moved by a vote of all the players, a simultaneous decision (``to_act``
lists every seat that has not voted; ``{"type": "vote", "to": space_id}``, the options in the fixed policy's
order, its choice first, so that a clock that runs out votes for it). Most votes win; a tie goes to the option
the fixed policy ranks first. With one space open there is nothing to disagree about: the chariot moves.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from typing import Any

from engines.base import BaseEngine, _copy
from engines.protocol import IllegalAction
from engines.rng import Rng

from .track import MAX_STEPS, TRACK_NAMES, Track, get_track, track_version

LAURELS = (6, 4, 3, 2, 1, 0)
HAND_SIZE = 3
LAPS = 3
COPIES = "abcd"
TURN_ORDERS = ("seat", "previous_results")
OPTION_NAMES = ("chariots_per_player", "races", "neutral_chariots", "turn_order", "track", "neutral_vote")
ROMAN = ("I", "II", "III", "IV", "V", "VI")
_TRACKS: dict[tuple, Track] = {}  # (track, direction, rules version) -> Track: a race asks for it at every step


#: chariot -> its 24 card ids in the order a deck is made before it is shuffled
DECKS: tuple[tuple[str, ...], ...] = tuple(tuple(f"AC{c}-{v}{x}" for v in range(1, 7) for x in COPIES)
                                           for c in range(6))
#: every card id of the game -> its value (the engine deals only these; ``card_value`` parses any other)
CARD_VALUES: dict[str, int] = {x: int(x[4]) for deck in DECKS for x in deck}

def card_value(card_id: str) -> int:
    """``"AC3-5b"`` -> 5."""
    value = CARD_VALUES.get(card_id)
    return int(card_id.split("-")[1][0]) if value is None else value


class _Turn:
    """One chariot's turn in one state, worked out once: the legal actions (by card value, then destination
    order), ``dests`` card value -> the destinations it may reach (a card with no move may be missing), and
    the search ``layers`` the paths are read from (see ``_layers``)."""

    __slots__ = ("chariot", "actions", "dests", "layers")

    def __init__(self, chariot: int, actions: list[dict], dests: dict, layers: list) -> None:
        self.chariot = chariot
        self.actions = actions
        self.dests = dests
        self.layers = layers


_NO_TURN = _Turn(-1, [], {}, [])


class _Known(threading.local):
    """The turn memo, one per thread: ``turn_of`` (the state asked about last, its current chariot's turn) and
    ``recent`` (id(state) -> the same, for the last few states whose turn an ``apply`` ended on). A host works
    out a seat's choices in worker threads from copies of its states while its own thread applies the moves of
    several games in turn: with one slot for all, each evicted the others' (three turns worked out per move
    instead of one, issue 29)."""

    turn_of: tuple = (None, _NO_TURN)

    def __init__(self) -> None:
        self.recent: dict[int, tuple] = {}

    def forget(self, state: dict | None) -> None:
        """Nothing remembered of ``state`` (of any state when None) from here on: it is about to change."""
        self.turn_of = (None, _NO_TURN)
        if state is None:
            self.recent.clear()
        elif self.recent:
            self.recent.pop(id(state), None)

    def keep(self, state: dict, turn: _Turn) -> None:
        self.turn_of = (state, turn)
        recent = self.recent
        recent[id(state)] = self.turn_of
        if len(recent) > RECENT_TURNS:
            del recent[next(iter(recent))]


#: states whose turn each thread keeps besides the last asked about (a host plays many games in turn)
RECENT_TURNS = 16
_KNOWN = _Known()
_NO_FIELD: tuple[Any, list[int], set[int]] = (None, [], set())
BLOCKED_KEPT = 4096  # per track: move searches past a single chariot kept (about 1 kB each; ~1,300 seen in 300 games)


class _Moves(dict):
    """Destination -> the move action of one chariot with one card value, made on first use. The legal-action
    lists of every state share these dicts (read-only, as ``legal_actions`` says)."""

    __slots__ = ("chariot", "card")

    def __init__(self, chariot: int, card: int) -> None:
        super().__init__()
        self.chariot = chariot
        self.card = card

    def __missing__(self, to: str) -> dict:
        action = self[to] = {"type": "move", "chariot": self.chariot, "card": self.card, "to": to}
        return action


#: chariot -> card value -> its move actions (index 0 unused)
_MOVES = [[_Moves(c, v) for v in range(MAX_STEPS + 1)] for c in range(6)]


def normalize_options(num_players: int, options: dict | None) -> dict:
    """Validate the options and fill in defaults; raises ValueError with a readable message."""
    if not isinstance(num_players, int) or isinstance(num_players, bool) or not 2 <= num_players <= 6:
        raise ValueError("Ave Caesar is for 2 to 6 players.")
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise ValueError(f"Unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTION_NAMES)}.")
    neutral = options.get("neutral_chariots", False)
    if not isinstance(neutral, bool):
        raise ValueError("neutral_chariots must be true or false.")
    cpp = options.get("chariots_per_player")
    if cpp is None:
        cpp = 1 if neutral else {2: 3, 3: 2}.get(num_players, 1)
    if not isinstance(cpp, int) or isinstance(cpp, bool) or not 1 <= cpp <= 3:
        raise ValueError("chariots_per_player must be 1, 2 or 3.")
    if num_players * cpp > 6:
        raise ValueError(f"{num_players} players x {cpp} chariots is more than the 6 chariots of the game.")
    if neutral and num_players * cpp == 6:
        raise ValueError("Neutral chariots need a free start space, but all six are taken.")
    races = options.get("races", 4)
    if not isinstance(races, int) or isinstance(races, bool) or not 1 <= races <= 4:
        raise ValueError("races must be 1, 2, 3 or 4.")
    turn_order = options.get("turn_order", "seat")
    if turn_order not in TURN_ORDERS:
        raise ValueError("turn_order must be 'seat' or 'previous_results'.")
    track = options.get("track", "A")
    if track not in TRACK_NAMES:
        raise ValueError("track must be 'A' or 'B'.")
    vote = options.get("neutral_vote", False)
    if not isinstance(vote, bool):
        raise ValueError("neutral_vote must be true or false.")
    if vote and not neutral:
        raise ValueError("neutral_vote decides how neutral chariots move: it needs neutral_chariots.")
    out = {"chariots_per_player": cpp, "races": races, "neutral_chariots": neutral,
           "turn_order": turn_order, "track": track}
    if vote:  # (only when on: games without it keep the options they always had)
        out["neutral_vote"] = True
    return out


def race_plan(first_track: str, races: int) -> list[tuple[str, str]]:
    """Track and direction of each race: the chosen track, the other one, then both counter-clockwise."""
    other = "B" if first_track == "A" else "A"
    return [(first_track, "cw"), (other, "cw"), (first_track, "ccw"), (other, "ccw")][:races]


def _play_card(hand: list, value: int) -> None:
    """The first card of that value leaves the hand, as hand.remove() would take."""
    known = CARD_VALUES
    for i, x in enumerate(hand):
        if (known[x] if x in known else card_value(x)) == value:
            del hand[i]
            return


def _cross(car: dict, crossed: int, unpaid_player: bool) -> tuple[int, bool, bool]:
    """Count ``crossed`` crossings of the line: (crossings now, Caesar's wrath, finished). An unpaid player's
    chariot that begins its last lap is disqualified; one that crosses after the last lap has finished."""
    crossings = car["crossings"]
    wrath = finished = False
    if crossed:
        for _ in range(crossed):
            crossings += 1
            if crossings == LAPS and unpaid_player:
                wrath = True
            elif crossings > LAPS:
                finished = True
        car["crossings"] = crossings
    return crossings, wrath, finished


class AveCaesarEngine(BaseEngine):
    """The Ave Caesar rules behind the engine protocol (see the module docstring for decisions)."""

    key = "ave-caesar"
    title = "Ave Caesar"
    min_players = 2
    max_players = 6
    #: 2: new track layouts (no sideways links, the inner arc cheapest in every curve), the lap-2 alley trap,
    #: paid and neutral chariots may enter the alley, neutral chariots start behind the players, 4 races by
    #: default. Games saved under 1 keep their v1 tracks (``track_version``) and finish under the fixed rules.
    rules_version = 2
    #: undo within a turn (issue 25): none - every move plays a card from the hand for all to see and draws
    #: a new one from the face-down stack
    take_back: frozenset[str] = frozenset()
    accepted_versions = (1, 2)

    # ------------------------------------------------------------------ setup
    def new_game(self, num_players: int, seed: int, options: dict | None = None) -> dict:
        opts = normalize_options(num_players, options)
        cpp = opts["chariots_per_player"]
        chariots = []
        for k in range(cpp):
            for seat in range(num_players):
                label = "ABCDEF"[seat] + (str(k + 1) if cpp > 1 else "")
                chariots.append({"label": label, "owner": seat})
        if opts["neutral_chariots"]:
            for k in range(6 - len(chariots)):
                chariots.append({"label": f"N{k + 1}", "owner": None})
        state = {
            "rules_version": self.rules_version,
            "num_players": num_players,
            "options": opts,
            "rng": Rng(seed).state,
            "chariots": chariots,
            "laurels": [0] * len(chariots),
            "history": [],
            "race": None,
            "over": False,
        }
        self._start_race(state, [])
        self.forget(state)  # callers may set up a position by hand on a new game: remember nothing of it
        return state

    def _start_race(self, state: dict, events: list[dict]) -> set | None:
        opts = state["options"]
        no = len(state["history"]) + 1
        name, direction = race_plan(opts["track"], opts["races"])[no - 1]
        track = get_track(name, direction, track_version(state["rules_version"]))
        rng = Rng(state["rng"])
        n = len(state["chariots"])
        decks = []
        for c in range(n):
            deck = list(DECKS[c])
            rng.shuffle(deck)
            decks.append(deck)
        reveal: list[list[list[int]]] = []
        prev = state["history"][-1] if state["history"] else None
        owned = [c for c in range(n) if state["chariots"][c]["owner"] is not None]
        # neutral chariots take the start spaces left after the players' chariots (they reveal no card)
        neutrals = [c for c in range(n) if c not in owned]
        k = len(owned)
        if prev is None:
            # every player's chariot turns its top card; the highest starts, ties turn again; the cards go back
            contenders = list(owned)
            depth = 0
            while len(contenders) > 1 and depth < len(decks[0]):
                shown = [[c, card_value(decks[c][-1 - depth])] for c in contenders]
                reveal.append(shown)
                top = max(v for _, v in shown)
                contenders = [c for c, v in shown if v == top]
                depth += 1
            first = contenders[0]
            for deck in decks:
                rng.shuffle(deck)
            grid = [owned[(owned.index(first) + i) % k] for i in range(k)] + neutrals
        elif opts["turn_order"] == "previous_results":
            ranked = prev["ranking"]
            grid = ranked + [c for c in owned if c not in ranked] + neutrals
        else:
            last = prev["ranking"][-1]
            grid = [owned[(owned.index(last) + i) % k] for i in range(k)] + neutrals
        order = [(grid[0] + i) % n for i in range(n)]
        cars = []
        for c in range(n):
            hand = []
            if state["chariots"][c]["owner"] is not None:
                for _ in range(HAND_SIZE):
                    hand.append(decks[c].pop())
            cars.append({"space": track.start[grid.index(c)], "crossings": 0, "paid": False, "status": "racing",
                         "deck": decks[c], "hand": hand, "played": [], "left": None})
        state["rng"] = rng.state
        state["race"] = {"no": no, "track": name, "direction": direction, "grid": grid, "order": order,
                         "turn": 0, "moves": 0, "idle": 0, "finish": [], "cars": cars, "reveal": reveal,
                         "last": []}
        events.append({"type": "race_started", "race": no, "races": opts["races"], "track": name,
                       "direction": direction, "grid": grid, "order": order, "reveal": reveal,
                       "turn_order": "reveal" if prev is None else opts["turn_order"]})
        return self._advance(state, events, advance_first=False)

    # The memo, instead of the base class's: (the state asked about last, its current chariot's turn), per
    # thread (_KNOWN.turn_of). Only apply changes a state; code that edits one by hand must call forget.
    # (race dict, its racing chariots, the seats that own one) as _advance found them last; a chariot leaving
    # the track (_take_off, finishing) resets it
    _field: tuple = _NO_FIELD

    def forget(self, state: dict | None = None) -> None:
        """:meth:`BaseEngine.forget`: the turn and the track looked up last (a hand edit may change either)."""
        super().forget(state)
        if state is None or _KNOWN.turn_of[0] is state or id(state) in _KNOWN.recent:
            _KNOWN.forget(state)
        self._track_of = (None, None)
        self._field = _NO_FIELD

    # ------------------------------------------------------------------ protocol
    def seat_count(self, state: dict) -> int:
        return state["num_players"]

    def to_act(self, state: dict) -> list[int]:
        if state["over"]:
            return []
        race = state["race"]
        vote = race.get("vote")
        if vote is not None:
            return [seat for seat, v in enumerate(vote["votes"]) if v is None]
        owner = state["chariots"][race["order"][race["turn"]]]["owner"]
        return [] if owner is None else [owner]

    def current_chariot(self, state: dict) -> int | None:
        """The chariot whose turn it is (None when the game is over)."""
        if state["over"]:
            return None
        race = state["race"]
        return race["order"][race["turn"]]

    def remember_legal(self, state: dict, seat: int, legal: list[dict]) -> None:
        """(Nothing to keep: a turn's list is worked out once and kept with the turn, see :meth:`legal_actions`.)"""

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        # the base class's memo, without its per-seat layer: the turn (memoised) holds the list
        if state["over"]:
            return []
        race = state["race"]
        vote = race.get("vote")
        if vote is not None:
            if not isinstance(seat, int) or not 0 <= seat < len(vote["votes"]) or vote["votes"][seat] is not None:
                return []
            return [{"type": "vote", "to": to} for to in vote["options"]]
        c = race["order"][race["turn"]]
        owner = state["chariots"][c]["owner"]
        if owner is None or seat != owner:
            return []
        return list(self._known_turn(state, c).actions)  # the action dicts are shared, read-only

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        return self.legal_actions(state, seat)

    def legal_copy(self, state: dict, seat: int) -> list[dict]:
        """:meth:`BaseEngine.legal_copy`: a move action holds plain values only, so a flat copy will do."""
        return [dict(a) for a in self.legal_actions(state, seat)]

    @staticmethod
    def _is_legal(turn: _Turn, action: dict) -> bool:
        """Is ``action`` equal to one of the turn's legal actions?"""
        try:
            # equal to {"type": "move", "chariot": c, "card": v, "to": t}: the same four keys, equal values
            if len(action) != 4 or action.get("type") != "move" or action.get("chariot") != turn.chariot:
                return False
            dests = turn.dests.get(action.get("card"))
            return dests is not None and action.get("to") in dests
        except TypeError:  # an unhashable card or destination: compare as the base class does
            return action in turn.actions

    def validate(self, state: dict, seat: int, action: dict) -> None:
        """As the base class (the action must equal a legal one), by a look-up instead of a list scan."""
        if state["race"].get("vote") is not None:
            super().validate(state, seat, action)
        elif seat not in self.to_act(state):
            super().validate(state, seat, action)
        else:
            c = self.current_chariot(state)
            if c is None or not self._is_legal(self._known_turn(state, c), action):
                raise IllegalAction(self.explain_illegal(state, seat, action))

    def apply(self, state: dict, seat: int, action: dict) -> list[dict]:
        """:meth:`BaseEngine.apply` with its checks and answers, the turn looked up once."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("That is not a valid action.")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalAction("Unknown seat.")
        if state["over"]:
            raise IllegalAction("The game is over.")
        race = state["race"]
        if race.get("vote") is not None:
            if seat not in self.to_act(state):
                raise IllegalAction("You have voted already, or you have no vote." if 0 <= seat < state["num_players"]
                                    else "Unknown seat.")
            if action not in self.legal_actions(state, seat):
                raise IllegalAction(self.explain_illegal(state, seat, action))
            return self._apply_vote(state, seat, action)
        c = race["order"][race["turn"]]
        owner = state["chariots"][c]["owner"]
        if owner is None or seat != owner:
            raise IllegalAction("It is not your turn.")
        turn = self._known_turn(state, c)
        if not self._is_legal(turn, action):
            raise IllegalAction(self.explain_illegal(state, seat, action))
        return self._apply(state, seat, action, turn)

    def explain_illegal(self, state: dict, seat: int, action: dict) -> str:
        c = self.current_chariot(state)
        if c is None:
            return "The game is over."
        label = state["chariots"][c]["label"]
        if state["race"].get("vote") is not None:
            return f"Vote for one of the spaces neutral chariot {label} can reach."
        if action.get("type") != "move":
            return "The only action in Ave Caesar is a move: a card and a destination."
        if action.get("chariot") != c:
            return f"It is chariot {label}'s turn."
        car = state["race"]["cars"][c]
        card = action.get("card")
        if card not in [card_value(x) for x in car["hand"]]:
            return f"Chariot {label} holds no {card}."
        if card == 6 and not self._six_allowed(state, c, [card_value(x) for x in car["hand"]]):
            return "You may not play a 6 while you lead the race."
        return f"A {card} cannot take chariot {label} to that space."

    def _apply(self, state: dict, seat: int, action: dict, turn: _Turn | None = None) -> list[dict]:
        """Play a legal move (``turn``: the chariot's turn, when the caller has it) and run the game on to the
        next decision. The memo ends up holding only the new state's turn (see ``_advance``)."""
        if turn is None:
            turn = self._known_turn(state, action["chariot"])
        _KNOWN.forget(state)  # the state changes from here on
        try:
            events: list[dict] = []
            card = action["card"]
            to = action["to"]
            steps = card
            if type(steps) is not int:  # a value equal to a card value (True == 1): the card it stands for
                steps = next(v for v in turn.dests if v == card)
            path = self._walk(turn.layers, steps, to)
            track = self.track(state)
            self._do_move(state, turn.chariot, card, path, events, False, None, track.crossed[path[0]][to], track)
            state["race"]["last"][-1]["by"] = seat  # a player's decision (not an automatic move)
            self._trim_last(state, self._advance(state, events, advance_first=True))
            self._label(state, events)
            return events
        except BaseException:
            _KNOWN.forget(state)  # a half-changed state: remember nothing of it
            raise

    @staticmethod
    def _trim_last(state: dict, waiting: set | None) -> None:
        """Forget moves that no view shows any more: those before every racing player's latest decision.
        ``waiting``: the seats whose chariots race (``_advance``'s answer; it is used up)."""
        if not waiting:
            return
        last = state["race"]["last"]
        # from the newest entry back: where the last racing player still missing is found, is the oldest of
        # the racing players' latest decisions
        for i in range(len(last) - 1, -1, -1):
            item = last[i]
            if "by" in item:
                waiting.discard(item["by"])
                if not waiting:
                    del last[:i]
                    return

    def recent(self, state: dict) -> list[dict]:
        """The moves and skips a picture shows: since the latest decision of the player to act now (that
        decision included; the whole race so far if he has not decided yet), or since the last decision once
        the game is over. After a person's move that is his move plus the AI moves up to his next turn."""
        last = state["race"]["last"]
        acting = self.to_act(state)
        decided = [i for i, item in enumerate(last) if "by" in item]
        if acting:
            mine = [i for i in decided if last[i]["by"] == acting[0]]
            start = mine[-1] if mine else 0
        else:
            start = decided[-1] if decided else 0
        return _copy(last[start:])

    @staticmethod
    def _label(state: dict, events: list[dict]) -> None:
        """Name the chariots in events, so narration needs no state: ``label`` next to every ``chariot``;
        ``labels`` and ``owners`` (per chariot id) on the events that list several chariots."""
        chariots = state["chariots"]
        for event in events:
            if "chariot" in event:
                event["label"] = chariots[event["chariot"]]["label"]
            if event["type"] in ("race_started", "race_over", "race_stalled"):
                event["labels"] = [ch["label"] for ch in chariots]
                event["owners"] = [ch["owner"] for ch in chariots]

    # ------------------------------------------------------------------ movement
    _track_of: tuple = (None, None)  # (race dict, its track): the last race asked about

    def track(self, state: dict) -> Track:
        race = state["race"]
        known = self._track_of
        if known[0] is race:  # a race keeps its track, direction and rules version
            return known[1]
        key = (race["track"], race["direction"], state["rules_version"])
        track = _TRACKS.get(key)
        if track is None:
            track = _TRACKS[key] = get_track(race["track"], race["direction"], track_version(key[2]))
        self._track_of = (race, track)
        return track

    def remaining(self, state: dict, c: int) -> int:
        """Shortest distance still to drive for a chariot on the track (0 once finished)."""
        car = state["race"]["cars"][c]
        if car["space"] is None:
            return car["left"] or 0
        return self.track(state).remaining(car["space"], car["crossings"])

    def to_go(self, state: dict, c: int) -> int:
        """What chariot c still has to drive, the stop in Caesar's alley included while it is due and still
        possible: the "N to go" of the prompt and the "N to the finish" of every move count the same way."""
        car = state["race"]["cars"][c]
        if car["space"] is None:
            return car["left"] or 0
        if car["paid"] or state["chariots"][c]["owner"] is None:
            return self.remaining(state, c)
        return self.track(state).remaining_due(car["space"], car["crossings"])

    def leaders(self, state: dict) -> list[int]:
        """Chariots tied for the lead among those racing; empty when fewer than two race (nobody to lead)."""
        cars = state["race"]["cars"]
        racing = [c for c, car in enumerate(cars) if car["status"] == "racing"]
        if len(racing) < 2:
            return []
        track = self.track(state)
        to_line, lap = track.to_line, track.lap
        rem = []
        for c in racing:  # remaining(), inlined: this runs whenever a chariot holds a 6
            car = cars[c]
            space = car["space"]
            rem.append((car["left"] or 0) if space is None else to_line[space] + max(0, LAPS - car["crossings"]) * lap)
        best = min(rem)
        return [c for c, r in zip(racing, rem) if r == best]

    def _leads(self, state: dict, c: int) -> bool:
        """``c in self.leaders(state)`` for a racing chariot c, without listing the leaders."""
        track = self.track(state)
        to_line, lap = track.to_line, track.lap
        cars = state["race"]["cars"]
        car = cars[c]
        space = car["space"]
        mine = (car["left"] or 0) if space is None else to_line[space] + max(0, LAPS - car["crossings"]) * lap
        others = False
        for o in cars:
            if o is not car and o["status"] == "racing":
                space = o["space"]
                if ((o["left"] or 0) if space is None else to_line[space] + max(0, LAPS - o["crossings"]) * lap) < mine:
                    return False
                others = True
        return others

    def _six_allowed(self, state: dict, c: int, hand: list[int] | None) -> bool:
        """May chariot c play a 6 now? ``hand``: its card values (None for a neutral chariot)."""
        race = state["race"]
        if race["moves"] == 0 and c == race["grid"][0]:
            return True  # the start player's first move
        if not self._leads(state, c):
            return True
        if hand is None:
            return False
        leaders = self.leaders(state)
        car = race["cars"][c]
        # three 6s in the book, where a hand always holds three cards; once the deck is used up the hand
        # shrinks, and a bottleneck leader holding nothing but 6s gets the same relief
        if car["space"] in self.track(state).bottlenecks and hand and all(v == 6 for v in hand):
            return True
        if len(leaders) >= 2:
            cars = race["cars"]
            only_sixes = all(
                state["chariots"][x]["owner"] is not None and cars[x]["hand"]
                and all(card_value(card) == 6 for card in cars[x]["hand"]) for x in leaders)
            if only_sixes and self._leaders_block(state, leaders):
                return True
        return False

    def _leaders_block(self, state: dict, leaders: list[int]) -> bool:
        """True when no other racing chariot has a free way to the spaces right in front of the leaders."""
        track = self.track(state)
        cars = state["race"]["cars"]
        walls = {cars[x]["space"] for x in leaders}
        targets = {n for s in walls for n in track.next[s]} - walls
        for c, car in enumerate(cars):
            if car["status"] != "racing" or c in leaders:
                continue
            seen = {car["space"]}
            queue = deque([car["space"]])
            while queue:
                cur = queue.popleft()
                for nxt in track.next[cur]:
                    if nxt in walls or nxt in seen:
                        continue
                    if nxt in targets:
                        return False
                    seen.add(nxt)
                    queue.append(nxt)
        return True

    def _entrance_blocked(self, state: dict, c: int) -> bool:
        track = self.track(state)
        others = {car["space"] for x, car in enumerate(state["race"]["cars"]) if x != c and car["space"]}
        return track.alley_access in others or track.alley_entry in others

    @staticmethod
    def _layers(track: Track, start: str, occupied: set, top: int) -> list[dict[str, str]]:
        """Breadth-first move search from ``start`` over free spaces, for up to ``top`` steps: entry k maps
        every space reachable in k + 1 steps to the space before it on its canonical path (the first found:
        spaces in order of discovery, links in track order). A partial move is keyed by its space alone
        (``Track._short_moves`` checks that this loses nothing); the list stops early when nothing is
        reachable any more and may run past ``top``. A chariot that drives into the alley must stop there
        (``ahead_out``). Up to the first step that meets an occupied space the layers are those of the empty
        track, which the track keeps; the search goes on from there."""
        first = track.first_step[start]
        k = MAX_STEPS + 1  # the first step at which an occupied space could be reached
        blockers = 0  # occupied spaces a move could reach (the search never meets any other)
        for space in occupied:
            j = first.get(space)
            if j is not None:
                blockers += 1
                blocker = space
                if j < k:
                    k = j
        free = track.free_layers[start]
        if k > top:
            return free
        if blockers == 1:
            # one chariot in the way, the commonest jam: its full search is kept on the track (bounded)
            known = track.blocked_layers.get((start, blocker))
            if known is None:
                known = AveCaesarEngine._search(track, start, {blocker}, k, MAX_STEPS)
                if len(track.blocked_layers) < BLOCKED_KEPT:
                    track.blocked_layers[(start, blocker)] = known
            return known
        return AveCaesarEngine._search(track, start, occupied, k, top)

    @staticmethod
    def _search(track: Track, start: str, occupied: set, k: int, top: int) -> list[dict[str, str]]:
        """``_layers``' search: the empty track's layers up to step k - 1, then on over free spaces."""
        layers = track.free_layers[start][:k - 1]
        layer: dict | tuple = layers[-1] if layers else (start,)
        ahead = track.ahead_in if start in track.alley_set else track.ahead_out
        for _ in range(k, top + 1):
            new: dict[str, str] = {}
            for space in layer:
                for nxt in ahead[space]:
                    if nxt not in new and nxt not in occupied:
                        new[nxt] = space
            if not new:
                break
            layers.append(new)
            layer = new
        return layers

    @staticmethod
    def _walk(layers: list[dict[str, str]], steps: int, to: str) -> list[str]:
        """The canonical path of ``steps`` steps to ``to``, start space first."""
        path = [to]
        for k in range(steps - 1, -1, -1):
            to = layers[k][to]
            path.append(to)
        path.reverse()
        return path

    def _setting(self, state: dict, c: int, wait: bool) -> tuple:
        """(track, occupied spaces, alley due, must wait) for a move search of chariot c: the alley is due for
        an unpaid player's chariot that can still reach it; it must wait (lap 2) while the entrance is taken."""
        track = self.track(state)
        cars = state["race"]["cars"]
        car = cars[c]
        occupied = {o["space"] for x, o in enumerate(cars) if x != c}
        due = (state["chariots"][c]["owner"] is not None and not car["paid"]
               and track.alley_reachable(car["space"], car["crossings"]))
        must_wait = wait and due and (track.alley_access in occupied or track.alley_entry in occupied)
        return track, occupied, due, must_wait

    def _reach(self, state: dict, c: int, values: set[int], wait: bool = True) -> dict[int, list[tuple]]:
        """:meth:`_paths` as tuples (space, path, line crossings, enters the alley, misses the alley); a step
        count past the point where nothing is reachable any more may be missing instead of empty."""
        out: dict[int, list[tuple]] = {}
        if not values:
            return out
        track, occupied, due, must_wait = self._setting(state, c, wait)
        car = state["race"]["cars"][c]
        start = car["space"]
        inside = start in track.alley_set
        crossed_from = track.crossed[start]
        layers = self._layers(track, start, occupied, max(values))
        for step in range(1, len(layers) + 1):
            if step in values:
                ends = []
                for to in layers[step - 1]:
                    crossed = crossed_from[to]
                    entered = not inside and to in track.alley_set
                    misses = due and not entered and not track.alley_reachable(to, car["crossings"] + crossed)
                    if misses and must_wait:
                        continue  # lap 2, entrance blocked: wait for it to clear rather than pass the alley
                    ends.append((to, self._walk(layers, step, to), crossed, entered, misses))
                out[step] = ends
        return out

    def _paths(self, state: dict, c: int, values: set[int], wait: bool = True) -> dict[int, list[dict]]:
        """Every end space chariot c can reach with exactly v steps for each v in values, with one canonical
        path each: free spaces only, alley entered only to stop in it (by anyone: a chariot that has paid may
        salute again, a neutral one may use it), and the lap-2 wait: while an opponent blocks the alley's
        entrance, an unpaid chariot that can still reach the alley may not move where it no longer can
        (``wait=False`` ignores that last rule, to tell why a chariot is stuck). Each end says whether it
        ``misses`` the alley: the move takes an unpaid chariot from where it could still pay to where it can't."""
        found = self._reach(state, c, values, wait)
        return {step: [{"to": to, "path": path, "crossed": crossed, "enters_alley": entered, "misses": misses}
                       for to, path, crossed, entered, misses in found.get(step, ())]
                for step in range(1, max(values, default=0) + 1) if step in values}

    def choices(self, state: dict, c: int) -> list[dict]:
        """The destinations of chariot c this turn, numbered from 1 (nearest first), each with the cards
        that reach it and their paths. Empty when it cannot move."""
        turn = self._known_turn(state, c)
        if not turn.actions:
            return []
        track = self.track(state)
        car = state["race"]["cars"][c]
        start = car["space"]
        inside = start in track.alley_set
        paid = car["paid"]
        plain = paid or state["chariots"][c]["owner"] is None
        # a move can miss the alley only from lap 1 on, for an unpaid player's chariot that can still pay
        check = not plain and car["crossings"] >= 1 and track.alley_reachable(start, car["crossings"])
        by_space: dict[str, list] = {}
        for action in turn.actions:  # by card value first
            to = action["to"]
            entry = by_space.get(to)
            if entry is None:
                crossings = car["crossings"] + track.crossed[start][to]
                entered = not inside and to in track.alley_set
                finishes = crossings > LAPS
                if finishes:
                    remaining = to_go = 0
                else:
                    remaining = track.to_line[to] + (LAPS - crossings) * track.lap
                    to_go = remaining if plain or entered else track.remaining_due(to, crossings)
                misses = check and not entered and not track.alley_reachable(to, crossings)
                # farthest from the finish first, then by lane and space id
                entry = by_space[to] = [(-remaining, track.tiebreak[to]), {
                    "to": to, "moves": [], "remaining": remaining, "to_go": to_go,
                    "lap": LAPS if finishes else (crossings or 1), "finishes": finishes,
                    "enters_alley": entered and not paid, "misses_alley": misses, "n": 0}]
            entry[1]["moves"].append({"card": action["card"], "path": self._walk(turn.layers, action["card"], to)})
        out = [choice for _, choice in sorted(by_space.values(), key=lambda e: e[0])]
        for i, choice in enumerate(out):
            choice["n"] = i + 1
        return out

    def _known_turn(self, state: dict, c: int) -> _Turn:
        """:meth:`_turn`, computed once per state (the result is shared: read it, never change it)."""
        known, turn = _KNOWN.turn_of
        if known is state and turn.chariot == c:
            return turn
        kept = _KNOWN.recent.get(id(state))
        if kept is not None and kept[0] is state and kept[1].chariot == c:
            _KNOWN.turn_of = kept
            return kept[1]
        turn = self._turn(state, c)
        _KNOWN.turn_of = (state, turn)
        return turn

    def _turn(self, state: dict, c: int) -> _Turn:
        """Chariot c's moves: destinations ordered nearest the chariot (farthest from the finish) first, then
        by lane and space id (the choice numbers); legal actions by card value, then in that order."""
        cars = state["race"]["cars"]
        car = cars[c]
        if state["over"] or car["status"] != "racing":
            return _NO_TURN
        known = CARD_VALUES
        hand = [known[x] if x in known else card_value(x) for x in car["hand"]]
        values = set(hand)
        if 6 in values and not self._six_allowed(state, c, hand):
            values.discard(6)
        if not values:
            return _NO_TURN
        # _setting, inlined
        track = self.track(state)
        start = car["space"]
        crossings = car["crossings"]
        occupied = {o["space"] for o in cars if o is not car}
        layers = self._layers(track, start, occupied, max(values))
        free = track.free_layers[start]  # the search's first layers, up to the first chariot in the way
        # destination order: farthest from the finish first (a move crosses the line at most once, Track checks
        # it, so only in the last lap can a move finish: those come last), then by lane and space id; the
        # empty track's layers have it at hand
        if crossings < LAPS:
            orders = track.free_order[start]
            rank = track.move_rank[start]
        else:
            orders = track.free_final_order[start]
            rank = track.final_rank[start]
        # lap 2, an unpaid player's chariot that can still pay while the alley's entrance is taken: it waits
        # rather than pass the alley, so the moves that leave it out of reach are not legal
        wait = (crossings >= 1 and not car["paid"] and state["chariots"][c]["owner"] is not None
                and (crossings < 2 or (crossings == 2 and start in track.alley_reach))  # track.alley_reachable
                and (track.alley_access in occupied or track.alley_entry in occupied))
        actions: list[dict] = []
        dests: dict = {}
        moves = _MOVES[c]
        for value in sorted(values):
            if value > len(layers):
                break
            layer = layers[value - 1]
            if value <= len(free) and layer is free[value - 1]:
                tos = orders[value - 1]
            else:
                tos = sorted(layer, key=rank.__getitem__)
            if wait:
                inside = start in track.alley_set
                alley, reach, crossed_from = track.alley_set, track.alley_reach, track.crossed[start]
                tos = [to for to in tos if (not inside and to in alley)
                       or (crossings + crossed_from[to] < 2 or (crossings + crossed_from[to] == 2 and to in reach))]
                dests[value] = set(tos)
            else:
                dests[value] = layer
            actions += map(moves[value].__getitem__, tos)
        return _Turn(c, actions, dests, layers)

    def _do_move(self, state: dict, c: int, value: int, path: list[str], events: list[dict],
                 auto: bool = False, card_id: str | None = None, crossed: int | None = None,
                 track: Track | None = None) -> None:
        race = state["race"]
        if track is None:
            track = self.track(state)
        car = race["cars"][c]
        owner = state["chariots"][c]["owner"]
        if card_id is None:
            _play_card(car["hand"], value)
        car["played"].append(value)
        start = path[0]
        end = path[-1]
        crossings = car["crossings"]
        paid = car["paid"]
        # an unpaid player's chariot that could still pay before this move (track.alley_reachable, inlined)
        missed = (owner is not None and not paid and end not in track.alley_set
                  and (crossings < 2 or (crossings == 2 and start in track.alley_reach)))
        if crossed is None:
            crossed = sum(1 for a, b in zip(path, path[1:]) if track.crosses(a, b))
        crossings, wrath, finished = _cross(car, crossed, owner is not None and not paid)
        car["space"] = end
        race["moves"] += 1
        race["idle"] = 0
        events.append({"type": "moved", "chariot": c, "seat": owner, "card": value, "from": start,
                       "to": end, "path": path, "lap": LAPS if crossings > LAPS else (crossings or 1),
                       "auto": auto})
        race["last"].append({"kind": "move", "chariot": c, "card": value, "path": path})
        if crossed and 2 <= crossings <= LAPS and not wrath:
            events.append({"type": "new_lap", "chariot": c, "seat": owner, "lap": crossings})
        if end in track.alley_set and not paid and owner is not None:
            car["paid"] = True
            events.append({"type": "ave_caesar", "chariot": c, "seat": owner})
        elif missed and not wrath and not track.alley_reachable(end, crossings):
            events.append({"type": "alley_missed", "chariot": c, "seat": owner})
        if wrath:
            self._take_off(state, c, "disqualified")
            events.append({"type": "disqualified", "chariot": c, "seat": owner, "reason": "caesar_wrath"})
        elif finished:
            self._finish(state, c, events)
        else:  # still racing (only a racing chariot moves)
            if owner is not None and car["deck"]:
                car["hand"].append(car["deck"].pop())
            if not car["hand"] and not car["deck"]:
                self._take_off(state, c, "removed")
                events.append({"type": "out_of_cards", "chariot": c, "seat": owner})

    def _finish(self, state: dict, c: int, events: list[dict]) -> None:
        """Chariot ``c`` crossed the line for the last time: its place, and a player's laurels."""
        race = state["race"]
        car = race["cars"][c]
        owner = state["chariots"][c]["owner"]
        car["status"] = "finished"
        self._field = _NO_FIELD
        car["space"] = None
        car["left"] = 0
        race["finish"].append(c)
        place = laurels = None
        if owner is not None:
            place = sum(1 for x in race["finish"] if state["chariots"][x]["owner"] is not None)
            laurels = LAURELS[place - 1] if place <= len(LAURELS) else 0
        events.append({"type": "finished", "chariot": c, "seat": owner, "place": place, "laurels": laurels})

    def _take_off(self, state: dict, c: int, status: str) -> None:
        self._field = _NO_FIELD
        car = state["race"]["cars"][c]
        car["left"] = self.remaining(state, c)
        car["space"] = None
        car["status"] = status

    # ------------------------------------------------------------------ turn flow
    def _advance(self, state: dict, events: list[dict], advance_first: bool) -> set | None:
        """Move the turn on to the next chariot that has a decision to make, playing neutral chariots and
        skipping blocked ones on the way; ends races and the game. Returns the seats whose chariots still race
        (None once the game is over)."""
        step = advance_first
        chariots = state["chariots"]
        while True:
            race = state["race"]
            cars = race["cars"]
            field = self._field
            if field[0] is race:
                racing, owners = field[1], field[2]
            else:
                racing = []
                owners = set()
                for c, car in enumerate(cars):
                    if car["status"] == "racing":
                        racing.append(c)
                        owner = chariots[c]["owner"]
                        if owner is not None:
                            owners.add(owner)
                self._field = (race, racing, owners)
            if not owners:
                return self._end_race(state, events)  # starts the next race (and its first turns) if any
            if race["idle"] >= len(racing):
                # a whole round without any change: nothing can ever move again
                for c in racing:
                    self._take_off(state, c, "stopped")
                events.append({"type": "race_stalled", "chariots": racing})
                continue
            order = race["order"]
            turn = race["turn"]
            if step:
                turn = (turn + 1) % len(order)
            step = True
            while cars[order[turn]]["status"] != "racing":  # chariots off the track have no turn
                turn = (turn + 1) % len(order)
            race["turn"] = turn
            c = order[turn]
            if chariots[c]["owner"] is None:
                self._neutral_turn(state, c, events)
                if race.get("vote") is not None:
                    return set(owners)  # the players vote on its move
                continue
            found = self._turn(state, c)
            if found.actions:
                # the turn stops here, on a state final for this apply: remember its choices
                _KNOWN.keep(state, found)
                return set(owners)
            reason = self._skip_reason(state, c)
            race["idle"] += 1
            race["last"].append({"kind": "skip", "chariot": c, "reason": reason})
            events.append({"type": "skipped", "chariot": c, "seat": chariots[c]["owner"],
                           "reason": reason, "card": None})

    def _skip_reason(self, state: dict, c: int) -> str:
        """Why an owned chariot cannot move: 'leader_six', 'alley_wait' or 'blocked'."""
        car = state["race"]["cars"][c]
        values = {card_value(x) for x in car["hand"]}
        if 6 in values and self._reach(state, c, {6}).get(6):
            return "leader_six"
        if any(self._reach(state, c, values - {6}, wait=False).values()):
            return "alley_wait"
        return "blocked"

    def _neutral_turn(self, state: dict, c: int, events: list[dict]) -> None:
        """The neutral chariot rule: turn the top card and play it if possible, in its own interest."""
        race = state["race"]
        car = race["cars"][c]
        track = self.track(state)
        start = car["space"]
        occupied = {o["space"] for o in race["cars"] if o is not car}
        ahead = track.ahead_in if start in track.alley_set else track.ahead_out
        for n in ahead[start]:
            if n not in occupied:
                break
        else:  # no free space one step on
            race["idle"] += 1  # fully blocked: no card is turned
            race["last"].append({"kind": "skip", "chariot": c, "reason": "blocked"})
            events.append({"type": "skipped", "chariot": c, "seat": None, "reason": "blocked", "card": None})
            return
        if not car["deck"]:
            race["idle"] = 0
            self._take_off(state, c, "removed")
            events.append({"type": "out_of_cards", "chariot": c, "seat": None})
            return
        card_id = car["deck"].pop()
        value = card_value(card_id)
        ends: dict = {}
        reason = "blocked"
        if value == 6 and not self._six_allowed(state, c, None):
            reason = "leader_six"
        else:
            # _reach, inlined: the alley is never due for a neutral chariot, so every end of the search counts
            layers = self._layers(track, start, occupied, value)
            if value <= len(layers):
                ends = layers[value - 1]
        race["idle"] = 0
        if not ends:
            car["played"].append(value)
            race["last"].append({"kind": "skip", "chariot": c, "reason": reason, "card": value})
            events.append({"type": "skipped", "chariot": c, "seat": None, "reason": reason, "card": value})
            if not car["deck"]:
                self._take_off(state, c, "removed")
                events.append({"type": "out_of_cards", "chariot": c, "seat": None})
            return
        key = self._neutral_key(state, c)
        crossed_from = track.crossed[start]
        if len(ends) > 1 and state["options"].get("neutral_vote"):
            ranked = sorted(ends, key=lambda to: key(to, crossed_from[to]))
            race["vote"] = {"chariot": c, "card": value, "card_id": card_id, "options": ranked,
                            "votes": [None] * state["num_players"]}
            events.append({"type": "neutral_vote", "chariot": c, "seat": None, "card": value,
                           "options": list(ranked)})
            return
        best = best_key = None
        for to in ends:  # min(ends, key=...): the first with the least key
            k = key(to, crossed_from[to])
            if best_key is None or k < best_key:
                best, best_key = to, k
        assert best is not None  # ends: the neutral chariot's reachable spaces (it has a move)
        self._do_move(state, c, value, self._walk(layers, value, best), events, True, card_id, crossed_from[best],
                      track)

    def _apply_vote(self, state: dict, seat: int, action: dict) -> list[dict]:
        """A player's vote on a neutral chariot's move; the last vote moves it (see the module docstring)."""
        _KNOWN.forget(state)
        race = state["race"]
        vote = race["vote"]
        vote["votes"][seat] = action["to"]
        events: list[dict] = [{"type": "voted", "seat": seat, "chariot": vote["chariot"]}]
        if any(v is None for v in vote["votes"]):
            self._label(state, events)
            return events
        counts = {to: 0 for to in vote["options"]}
        for v in vote["votes"]:
            counts[v] += 1
        most = max(counts.values())
        best = next(to for to in vote["options"] if counts[to] == most)  # a tie: the fixed policy's order
        del race["vote"]
        c, value = vote["chariot"], vote["card"]
        track = self.track(state)
        start = race["cars"][c]["space"]
        occupied = {o["space"] for o in race["cars"] if o is not race["cars"][c]}
        layers = self._layers(track, start, occupied, value)
        events.append({"type": "vote_result", "chariot": c, "seat": None, "card": value, "to": best,
                       "votes": list(vote["votes"]), "options": list(vote["options"]),
                       "tie": sum(1 for n in counts.values() if n == most) > 1})
        self._do_move(state, c, value, self._walk(layers, value, best), events, True, vote["card_id"],
                      track.crossed[start][best], track)
        self._trim_last(state, self._advance(state, events, advance_first=True))
        self._label(state, events)
        return events

    def vote_choices(self, state: dict) -> list[dict]:
        """The spaces of a running vote, numbered from 1 in the fixed policy's order (its choice is 1), in the
        form of :meth:`choices` (so the pictures number them alike)."""
        vote = state["race"].get("vote")
        if vote is None:
            return []
        race = state["race"]
        c, value = vote["chariot"], vote["card"]
        track = self.track(state)
        car = race["cars"][c]
        start = car["space"]
        occupied = {o["space"] for o in race["cars"] if o is not car}
        layers = self._layers(track, start, occupied, value)
        out = []
        for n, to in enumerate(vote["options"], 1):
            crossings = car["crossings"] + track.crossed[start][to]
            finishes = crossings > LAPS
            remaining = 0 if finishes else track.to_line[to] + (LAPS - crossings) * track.lap
            out.append({"to": to, "moves": [{"card": value, "path": self._walk(layers, value, to)}],
                        "remaining": remaining, "to_go": remaining, "lap": LAPS if finishes else (crossings or 1),
                        "finishes": finishes, "enters_alley": False, "misses_alley": False, "n": n})
        return out

    def neutral_destination(self, state: dict, c: int, value: int, ends: list[dict]) -> dict:
        """Deterministic neutral policy: the shortest route on, then the space that stands in the way of the
        most players' chariots (a forward neighbour of theirs), then the inner lane, then the space id."""
        key = self._neutral_key(state, c)
        return min(ends, key=lambda end: key(end["to"], end["crossed"]))

    def _neutral_key(self, state: dict, c: int):
        """The sort key of :meth:`neutral_destination`, as a function of (end space, line crossings)."""
        track = self.track(state)
        race = state["race"]
        base = race["cars"][c]["crossings"]
        fronts = [track.next[o["space"]] for x, o in enumerate(race["cars"])
                  if x != c and o["status"] == "racing" and state["chariots"][x]["owner"] is not None]
        spaces = track.spaces

        def key(to: str, crossed: int) -> tuple:
            crossings = base + crossed
            rem = track.remaining(to, crossings) if crossings <= LAPS else -1
            blocks = 0
            for f in fronts:  # a loop, not sum() over a generator: cheaper before Python 3.12
                if to in f:
                    blocks += 1
            return (rem, -blocks, spaces[to]["lane"], to)

        return key

    # ------------------------------------------------------------------ race and game end
    def _end_race(self, state: dict, events: list[dict]) -> set | None:
        race = state["race"]
        n = len(state["chariots"])
        owned = [c for c in range(n) if state["chariots"][c]["owner"] is not None]
        finishers = [c for c in race["finish"] if c in owned]
        rest = sorted((c for c in owned if c not in finishers),
                      key=lambda c: (self.remaining(state, c), c))
        ranking = finishers + rest
        gained = [0] * n
        for i, c in enumerate(finishers):
            gained[c] = LAURELS[i] if i < len(LAURELS) else 0
            state["laurels"][c] += gained[c]
        record = {"race": race["no"], "track": race["track"], "direction": race["direction"],
                  "ranking": ranking, "laurels": gained, "status": [car["status"] for car in race["cars"]]}
        state["history"].append(record)
        events.append({"type": "race_over", "race": race["no"], "races": state["options"]["races"],
                       "ranking": ranking, "laurels": gained, "status": list(record["status"]),
                       "totals": self._seat_scores(state)})
        if race["no"] < state["options"]["races"]:
            return self._start_race(state, events)
        state["over"] = True
        result = self.result(state)
        assert result is not None  # the game is over
        events.append({"type": "game_over", "places": result["places"], "scores": result["scores"]})
        return None

    def _seat_scores(self, state: dict) -> list[int]:
        scores = [0] * state["num_players"]
        for c, ch in enumerate(state["chariots"]):
            if ch["owner"] is not None:
                scores[ch["owner"]] += state["laurels"][c]
        return scores

    def result(self, state: dict) -> dict | None:
        if not state["over"]:
            return None
        scores = self._seat_scores(state)
        places = [1 + sum(1 for other in scores if other > s) for s in scores]
        return {"places": places, "scores": scores,
                "reason": "race" if state["options"]["races"] == 1 else "championship",
                "laurels": list(state["laurels"]), "races": [dict(r) for r in state["history"]],
                "chariots": [{"label": ch["label"], "owner": ch["owner"]} for ch in state["chariots"]]}

    # ------------------------------------------------------------------ views and persistence
    def view(self, state: dict, seat: int | None) -> dict:
        race = state["race"]
        track = self.track(state)
        to_act = self.to_act(state)
        leaders = set(self.leaders(state)) if not state["over"] else set()
        chariots = []
        for c, ch in enumerate(state["chariots"]):
            car = race["cars"][c]
            racing = car["status"] == "racing"
            place = None
            if c in race["finish"] and ch["owner"] is not None:
                place = [x for x in race["finish"] if state["chariots"][x]["owner"] is not None].index(c) + 1
            chariots.append({
                "id": c, "label": ch["label"], "owner": ch["owner"], "neutral": ch["owner"] is None,
                "space": car["space"], "crossings": car["crossings"],
                "lap": min(LAPS, max(1, car["crossings"])), "paid": car["paid"], "status": car["status"],
                "remaining": self.remaining(state, c) if racing else car["left"],
                "to_go": self.to_go(state, c) if racing else None,
                "hand_size": len(car["hand"]), "deck_size": len(car["deck"]),
                "cards_left": len(car["hand"]) + len(car["deck"]),
                "played": list(car["played"]), "start": ROMAN[race["grid"].index(c)],
                "place": place, "leader": c in leaders, "laurels": state["laurels"][c],
            })
        scores = self._seat_scores(state)
        view = {
            "game": self.key, "seat": seat, "to_act": to_act, "num_players": state["num_players"],
            "options": dict(state["options"]), "race": race["no"], "races": state["options"]["races"],
            "track": race["track"], "track_title": track.title, "direction": race["direction"],
            "track_version": track.version,
            "chariots": chariots, "turn": self.current_chariot(state), "order": list(race["order"]),
            "grid": list(race["grid"]), "finish": list(race["finish"]), "first_move": race["moves"] == 0,
            "reveal": _copy(race["reveal"]),
            "last": self.recent(state),
            "standings": [{"seat": s, "laurels": scores[s],
                           "place": 1 + sum(1 for o in scores if o > scores[s])} for s in range(state["num_players"])],
            "history": _copy(state["history"]), "over": state["over"],
        }
        if seat is not None:
            view["hands"] = [{"chariot": c, "cards": [{"id": x, "value": card_value(x)} for x in race["cars"][c]["hand"]]}
                             for c, ch in enumerate(state["chariots"]) if ch["owner"] == seat
                             and race["cars"][c]["status"] == "racing"]
            if seat in to_act:
                cur = self.current_chariot(state)
                assert cur is not None  # a seat is to act: the game goes on
                view["legal"] = self.legal_copy(state, seat)
                view["choices"] = self.vote_choices(state) if race.get("vote") else self.choices(state, cur)
        vote = race.get("vote")
        if vote is not None:  # who has voted is public, for whom only once all have (vote_result)
            view["vote"] = {"chariot": vote["chariot"], "label": state["chariots"][vote["chariot"]]["label"],
                            "card": vote["card"], "options": list(vote["options"]),
                            "voted": [s for s, v in enumerate(vote["votes"]) if v is not None]}
        return view

    plain_json = True  # (to_json: a plain copy)

    def to_json(self, state: dict) -> dict:
        # the state holds JSON values only (dicts, lists, strings, numbers, booleans, None): a structural copy
        # is what a JSON round trip gives, several times faster (the search copies a state every iteration)
        return _copy(state)

    def from_json(self, data: dict) -> dict:
        return json.loads(json.dumps(self._adopt(data)))

    def _adopt(self, data: dict) -> dict:
        if data.get("rules_version") not in self.accepted_versions:
            raise ValueError(f"Ave Caesar state of rules version {data.get('rules_version')} cannot be loaded.")
        return data

    def secrets(self, state: dict, seat: int | None) -> set[str]:
        cars = state["race"]["cars"]
        if seat is None:
            return {x for car in cars for x in car["deck"]}
        return {x for c, car in enumerate(cars) if state["chariots"][c]["owner"] == seat for x in car["hand"]}

    # ------------------------------------------------------------------ test configuration
    def conformance_configs(self) -> list[tuple[int, dict]]:
        return [
            (2, {}),  # 2 players x 3 chariots
            (3, {}),  # 3 players x 2 chariots
            (6, {}),
            (2, {"neutral_chariots": True, "chariots_per_player": 2}),
            (3, {"neutral_chariots": True, "neutral_vote": True}),
            (2, {"chariots_per_player": 1, "races": 2, "turn_order": "previous_results"}),
        ]

    def max_playout_steps(self) -> int:
        # 24 cards a chariot, six chariots, four races; a neutral chariot's card may also take a vote of each
        # player (neutral_vote)
        return 6 * 24 * 4 * (1 + 6) + 10
