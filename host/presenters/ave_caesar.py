"""Ave Caesar on Discord: the options of ``/ave-caesar new``, card-then-destination choices, race
narration and championship results. Every sentence lives in ``data/locales/ave-caesar/en.json``.

A move is chosen in two steps (``two_step``): a button per card value the chariot can play, then that card's
destinations, each with the number the private track picture (sent on request: ``dm_picture`` False) shows on
its marker and said in words a player can find on the public board (lane, curve or Caesar's alley, the chariot it
draws up beside or behind: "4 → 2: outer lane, curve, beside A2"; the distance left too where that alone tells
two apart). Every move choice names a card of the hand, so all of them
are ``secret`` and only appear in the private panel.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engines.ave_caesar.engine import OPTION_NAMES, normalize_options
from engines.ave_caesar.track import TRACK_VERSION, get_track
from host.outcome import Hand
from host.panels import Choice
from host.presenters.base import OptionSpec, Presenter, Refined, Told

LETTERS = "ABCDEF"
ROMAN = ("I", "II", "III", "IV", "V", "VI")
NUMBER = re.compile(r"\d+")
#: the characters a button's label shows (Discord)
MAX_LABEL = 80
CHARIOT = re.compile(r"\b[a-fn]\d\b", re.I)  # "A1", "N2": chariot names are not card or marker numbers


def _track(view: dict):
    """The track the view's game races on, in the layout it began with."""
    return get_track(view["track"], view["direction"], view.get("track_version", TRACK_VERSION))


class AveCaesarPresenter(Presenter):
    game = "ave-caesar"
    two_step = True
    #: a turn's DM says the hand and the destinations in words; the numbered track picture is sent on request
    dm_picture = False

    @property
    def options(self) -> list[OptionSpec]:
        return [
            OptionSpec("players", "int", self.text("opt_players"), min_value=2, max_value=6),
            OptionSpec("chariots_per_player", "int", self.text("opt_chariots"), min_value=1, max_value=3),
            OptionSpec("races", "int", self.text("opt_races"), default=4, min_value=1, max_value=4),
            OptionSpec("neutral_chariots", "bool", self.text("opt_neutral"), default=False),
            OptionSpec("turn_order", "choice", self.text("opt_turn_order"), default="seat",
                       choices=[(self.text("opt_turn_order_seat"), "seat"),
                                (self.text("opt_turn_order_results"), "previous_results")]),
            OptionSpec("track", "choice", self.text("opt_track"), default="A",
                       choices=[(self.track_title("A"), "A"), (self.track_title("B"), "B")]),
            OptionSpec("neutral_vote", "bool", self.text("opt_neutral_vote"), default=False),
        ]

    @property
    def seat_labels(self) -> list[str]:
        return [self.text("seat", letter=letter) for letter in LETTERS]

    def engine_options(self, raw: dict, opponent: str = "open") -> tuple[int | None, dict]:
        """``players`` seats. Without it, a game against the AI is the smallest table the options allow (you
        and one AI driver), and a lobby waits for the largest (six players when they fit, else e.g. three
        with two chariots each; None = the host's full table); the host may start a lobby with fewer."""
        opts = {k: v for k, v in raw.items() if k in OPTION_NAMES and v is not None}
        players = raw.get("players")
        if players is not None:
            if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
                raise ValueError(self.text("error_players", players=players))
            return players, opts
        counts = range(2, 7) if opponent == "ai" else range(6, 1, -1)
        for count in counts:
            try:
                normalize_options(count, opts)
            except ValueError:
                continue
            return (None if count == 6 else count), opts
        return 2, opts  # no count fits: the engine's message explains why when the game is created

    # -- words for things -----------------------------------------------------------------------------

    def chariot(self, label: str, seat: int | None, names: list[str]) -> str:
        """"A1 (**Ann**)" / "N1 (neutral)"."""
        if seat is None:
            return self.text("chariot_neutral", label=label)
        name = self.player(seat, names)
        return self.text("chariot", label=label, name=name)

    def who(self, seat: int | None, names: list[str]) -> str:
        return self.player(seat, names) if seat is not None else "?"

    def score_text(self, details: dict, seat: int) -> str | None:
        scores = details.get("scores") or []
        return self.laurels(scores[seat]) if seat < len(scores) else None

    def player(self, seat: int, names: list[str]) -> str:
        """A seat's display name (the host numbers several AI seats: "AI 2", "AI 3")."""
        return names[seat] if 0 <= seat < len(names) else self.seat_label(seat)

    def _who(self, event: dict, names: list[str]) -> str:
        return self.chariot(event.get("label") or f"#{event['chariot'] + 1}", event.get("seat"), names)

    def _where(self, event: dict) -> str:
        """Where a move ended, as the board shows it: the lane (inner, middle, outer), in a curve or on a
        straight, or Caesar's alley."""
        to = event.get("to")
        if not isinstance(to, str):  # (a space is named by a string: no space is named otherwise)
            return self.text("where_track")
        try:
            space = get_track(to[0]).spaces[to]
        except (KeyError, IndexError, TypeError, ValueError):
            return self.text("where_track")
        if space["sec"] == "alley":
            return self.text("where_alley")
        lane = self.text(f"where_lane_{max(0, min(2, space['lane']))}")
        return self.text("where_curve" if space["sec"] in ("east", "west") else "where_straight", lane=lane)

    def _listed(self, event: dict, c: int, names: list[str]) -> str:
        labels = event.get("labels") or []
        owners = event.get("owners") or []
        label = labels[c] if c < len(labels) else f"#{c + 1}"
        return self.chariot(label, owners[c] if c < len(owners) else None, names)

    def direction(self, d: str) -> str:
        return self.text("clockwise" if d == "cw" else "counter_clockwise")

    def laurels(self, n: int) -> str:
        """"no laurels", "1 laurel", "5 laurels"; Polish says "2 laury" but "5 laurów" ("laurels_few": a count
        ending in 2-4, except 12-14)."""
        if n in (0, 1):
            return self.text("laurels_none" if n == 0 else "laurels_one", n=n)
        few = n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14)
        return self.text("laurels_few" if few else "laurels_many", n=n)

    def place(self, n: int) -> str:
        """"1st", "2nd", ... ("1." in Hungarian and Polish)."""
        return self.text(f"place_{n}" if n in (1, 2, 3) else "place_n", n=n)

    def track_title(self, name: str) -> str:
        """"Track A (Circus Maximus)" in the game's language."""
        try:
            return self.text(f"track_{name}")
        except KeyError:
            return get_track(name).title

    def hand(self, view: dict | None) -> Hand | None:
        """The cards of the chariot to move (values, lowest first: "2, 4, 6"), its label in the note, with the
        hands of the seat's other chariots still racing ("A2: 1 · 5 · 6"). Only the seat's own hands (the
        view of that seat) are read; None without them."""
        if view is None or view.get("seat") is None or "hands" not in view:
            return None
        chariots = view.get("chariots") or []
        hands = {h["chariot"]: sorted(card["value"] for card in h["cards"]) for h in view["hands"]}
        current = view.get("turn") if view.get("turn") in hands else next(iter(hands), None)
        if current is None:
            return Hand(())
        label = chariots[current]["label"] if current < len(chariots) else f"#{current + 1}"
        others = [self.text("hand_other", label=chariots[c]["label"] if c < len(chariots) else f"#{c + 1}",
                            cards=" · ".join(str(v) for v in cards) or "-")
                  for c, cards in hands.items() if c != current]
        note = self.text("hand_note", label=label)
        if others:
            note += " " + self.text("hand_others", others="; ".join(others))
        return Hand(tuple(str(v) for v in hands[current]), note)

    def _spot(self, view: dict, to: object, near: bool = True) -> str:
        """A destination in words a player can find on the public board: lane, curve or straight (or Caesar's
        alley), and (``near``) the chariot it would stand beside (same column of the track) or right behind."""
        try:
            track = _track(view)
            space = track.spaces[to]
        except (KeyError, TypeError, ValueError):
            return self.text("where_track")
        if space["sec"] == "alley":
            where = self.text("where_alley")
        else:
            lane = self.text(f"where_lane_{max(0, min(2, space['lane']))}")
            where = self.text("where_curve" if space["sec"] in ("east", "west") else "where_straight", lane=lane)
        if not near:
            return where
        me = view.get("turn")
        chariots = [c for c in view.get("chariots") or [] if c.get("space") and c.get("id") != me
                    and c.get("status") == "racing"]
        beside = next((c for c in chariots if c["space"] in track.spaces and c["space"] != to
                       and track.spaces[c["space"]]["sec"] == space["sec"]
                       and track.spaces[c["space"]]["col"] == space["col"]), None)
        if beside is not None:
            return self.text("spot_beside", where=where, label=beside["label"])
        ahead = set(track.next.get(to, ()))
        behind = next((c for c in chariots if c["space"] in ahead), None)
        if behind is not None:
            return self.text("spot_behind", where=where, label=behind["label"])
        return where

    # -- buttons ---------------------------------------------------------------------------------------

    @staticmethod
    def _choice_for(view: dict, action: dict) -> dict | None:
        return next((c for c in view.get("choices") or [] if c["to"] == action.get("to")), None)

    def describe(self, view: dict, action: dict, index: int) -> Choice:
        def spot(to: object, near: bool = True) -> str:
            return self._spot(view, to, near)

        def twins(card: int, to: str, where: str) -> bool:
            return self._twins(view, card, to, where, spot)
        return self._describe(view, action, index, spot, twins)

    def describe_all(self, view: dict, legal: list[dict]) -> list[Choice]:
        """The buttons of all legal actions: each destination said in words once, and which of a card's
        destinations are said in the same words found once (a label compares its words with those of the card's
        other destinations: asked per pair, that was most of a turn's work)."""
        said: dict[tuple[object, bool], str] = {}

        def spot(to: object, near: bool = True) -> str:
            key = (to, near)
            if key not in said:
                said[key] = self._spot(view, to, near)
            return said[key]
        alike: dict[tuple[object, str], set] | None = None

        def twins(card: int, to: str, where: str) -> bool:
            nonlocal alike
            if alike is None:  # (card, words) -> the destinations said so, as _twins looks them up
                alike = {}
                for a in view.get("legal") or []:
                    if a.get("type") == "move":
                        alike.setdefault((a.get("card"), spot(a.get("to"))), set()).add(a.get("to"))
            return any(other != to for other in alike.get((card, where), ()))
        return [self._describe(view, a, i, spot, twins) for i, a in enumerate(legal)]

    def _describe(self, view: dict, action: dict, index: int, spot: Callable[..., str],
                  twins: Callable[[int, str, str], bool]) -> Choice:
        """:meth:`describe` with ``spot(to, near=True)``: :meth:`_spot` of ``view``, and ``twins(card, to, where)``:
        :meth:`_twins` of ``view``."""
        if action.get("type") == "vote":
            return self._describe_vote(view, action, index)
        if action.get("type") != "move":
            return super().describe(view, action, index)
        choice = self._choice_for(view, action) or {}
        card = action["card"]
        n = choice.get("n", "?")
        flags, style, emoji = [], "primary", None
        me = view["chariots"][action["chariot"]] if action.get("chariot") is not None else {}
        if choice.get("finishes"):
            flags.append(self.text("flag_finishes"))
            style, emoji = "success", "🏁"
        elif choice.get("lap", 0) > me.get("lap", 0) and me.get("crossings", 0) >= 1:
            flags.append(self.text("flag_new_lap", lap=choice["lap"]))
        if choice.get("enters_alley"):
            flags.append(self.text("flag_enters_alley"))
            style, emoji = "success", "🏛️"
        if choice.get("misses_alley"):
            flags.append(self.text("flag_misses_alley"))
            style, emoji = "danger", "⚠️"
        where = spot(action["to"])
        # counted like the prompt's "N to go": with the alley stop while it is due
        remaining = choice.get("to_go", choice.get("remaining", "?"))
        label = self.text("label_move", card=card, n=n, where=where)
        if twins(card, action["to"], where):  # the words alone would not tell them apart
            label += self.text("label_to_go", remaining=remaining)
        if flags:
            label += self.text("label_flags", flags=", ".join(flags))
            if len(label) > MAX_LABEL:  # (a button shows 80 characters: the neighbour gives way to the warning)
                label = self.text("label_move", card=card, n=n, where=spot(action["to"], False))
                if twins(card, action["to"], where):
                    label += self.text("label_to_go", remaining=remaining)
                label += self.text("label_flags", flags=", ".join(flags))
        if choice.get("finishes"):
            description = self.text("description_finish")
        else:
            description = self.text("description_move", lap=choice.get("lap", "?"), remaining=remaining)
        return Choice(index, label, self.text("group_card", card=card), style=style, secret=True, emoji=emoji,
                      description=description)

    @staticmethod
    def _twins(view: dict, card: int, to: str, where: str, spot: Callable[..., str]) -> bool:
        """Another destination of the same card is said in the same words (e.g. two spaces of one lane)."""
        return any(a.get("card") == card and a.get("to") != to and spot(a.get("to")) == where
                   for a in view.get("legal") or [] if a.get("type") == "move")

    def _describe_vote(self, view: dict, action: dict, index: int) -> Choice:
        """A vote for one space of a neutral chariot's move, in words (its number on the track picture in the
        description); the fixed rule's own choice (1) says so, as it wins ties and is cast for a player whose time runs out."""
        choice = self._choice_for(view, action) or {}
        n = choice.get("n", "?")
        vote = view.get("vote") or {}
        label = self.text("label_vote_default" if n == 1 else "label_vote", label=vote.get("label", "?"), n=n,
                          where=self._spot({**view, "turn": vote.get("chariot")}, action["to"]))
        description = self.text("description_vote", remaining=choice.get("remaining", "?"))
        return Choice(index, label, self.text("group_vote", label=vote.get("label", "?"), card=vote.get("card", "?")),
                      style="primary" if n == 1 else "secondary", secret=True, description=description)

    def parse(self, view: dict, choices: list[Choice], text: str) -> int | Refined:
        """``/game play``: "4 2" or "4 -> 2" (card 4 to the marker numbered 2); one number alone when it
        leaves no doubt (a card with one destination, or a marker only one card reaches)."""
        numbers = [int(x) for x in NUMBER.findall(CHARIOT.sub(" ", text))]
        if not numbers:
            return super().parse(view, choices, text)
        if view.get("vote") is not None:  # "/game play 2": a vote for the space numbered 2
            return self._parse_vote(view, numbers[-1])
        legal = view.get("legal") or []
        marker = {c["to"]: c["n"] for c in view.get("choices") or []}
        moves = [(i, a["card"], marker.get(a["to"])) for i, a in enumerate(legal)]
        cards = sorted({card for _, card, _ in moves})
        if len(numbers) >= 2:
            return self._parse_card_to(moves, cards, numbers[0], numbers[1])
        k = numbers[0]
        by_card = [i for i, c, _ in moves if c == k]
        by_marker = [i for i, _, m in moves if m == k]
        candidates = set(by_card if len(by_card) == 1 else []) | set(by_marker if len(by_marker) == 1 else [])
        if len(candidates) == 1:
            return candidates.pop()
        raise ValueError(self.text("parse_help", cards=self._cards(cards)))

    def _parse_vote(self, view: dict, number: int) -> int:
        """A vote typed as the number of its space."""
        marker = {c["to"]: c["n"] for c in view.get("choices") or []}
        found = [i for i, a in enumerate(view.get("legal") or []) if marker.get(a["to"]) == number]
        if len(found) == 1:
            return found[0]
        raise ValueError(self.text("parse_vote", markers=", ".join(str(n) for n in sorted(marker.values()))))

    def _parse_card_to(self, moves: list[tuple[int, int, int | None]], cards: list[int], card: int, n: int) -> int:
        """A move typed as "card marker"."""
        if card not in cards:
            raise ValueError(self.text("parse_no_card", card=card, cards=self._cards(cards)))
        found = [i for i, c, m in moves if c == card and m == n]
        if not found:
            ns = ", ".join(str(m) for _, c, m in moves if c == card)
            raise ValueError(self.text("parse_no_marker", card=card, n=n, markers=ns))
        return found[0]

    @staticmethod
    def _cards(cards: list[int]) -> str:
        return ", ".join(str(c) for c in cards) or "-"

    def prompt(self, view: dict) -> str:
        c = view.get("turn")
        if c is None:
            return self.text("prompt_other")
        vote = view.get("vote")
        if vote is not None:
            return self.text("prompt_vote", label=vote["label"], card=vote["card"], n=len(vote["options"]))
        me = view["chariots"][c]
        coin = self.text("coin_paid" if me["paid"] else "coin_due")
        text = self.text("prompt_move", label=me["label"], lap=me["lap"], to_go=me["to_go"], coin=coin)
        if view.get("races", 1) > 1:
            text = self.text("prompt_race", race=view["race"], races=view["races"]) + text
        notes = []
        grid = view.get("grid") or []
        if view.get("first_move") and grid and grid[0] == c:
            notes.append(self.text("prompt_first_move"))  # the opening lines told who starts on I and why
        elif me.get("leader"):
            # a 6 among the legal moves means an exception applies: then "no 6" would be wrong
            six = any(a.get("card") == 6 and a.get("chariot") == c for a in view.get("legal") or [])
            notes.append(self.text("prompt_leader_six" if six else "prompt_leader"))
        if not me["paid"] and me["crossings"] == 2:
            notes.append(self.text("prompt_doomed" if self._past_alley(view, me) else "prompt_alley_due"))
        return " ".join([text, *notes])

    @staticmethod
    def _past_alley(view: dict, me: dict) -> bool:
        """Has this chariot already driven past Caesar's alley on this lap (public: its place on the track)?"""
        space = me.get("space")
        try:
            track = _track(view)
        except (KeyError, ValueError):
            return False
        if space is None or space not in track.spaces:
            return False
        return not track.alley_reachable(space, me.get("crossings", 0))

    # -- narration -------------------------------------------------------------------------------------

    def narrate(self, event: dict, names: list[str]) -> str | None:
        narrator = _NARRATORS.get(event["type"])
        # (game_over and other kinds without a narrator: the result lines follow)
        return narrator(self, Told(event, names)) if narrator is not None else None

    # -- the narration of each kind of event (_NARRATORS) -------------------------------------------------------

    def _ev_moved(self, told: Told) -> str | None:
        event, names = told.event, told.names
        key = "ev_moved_neutral" if event.get("seat") is None else "ev_moved"
        return self.text(key, who=self._who(event, names), card=event["card"], where=self._where(event))

    def _ev_new_lap(self, told: Told) -> str | None:
        event, names = told.event, told.names
        return self.text("ev_new_lap", who=self._who(event, names), lap=event["lap"])

    def _ev_ave_caesar(self, told: Told) -> str | None:
        event, names = told.event, told.names
        return self.text("ev_ave_caesar", who=self._who(event, names))

    def _ev_alley_missed(self, told: Told) -> str | None:
        event, names = told.event, told.names
        return self.text("ev_alley_missed", who=self._who(event, names))

    def _ev_disqualified(self, told: Told) -> str | None:
        event, names = told.event, told.names
        return self.text("ev_disqualified", who=self._who(event, names))

    def _ev_finished(self, told: Told) -> str | None:
        event, names = told.event, told.names
        if event.get("place") is None:
            return self.text("ev_finished_neutral", who=self._who(event, names))
        return self.text("ev_finished", who=self._who(event, names), place=self.place(event["place"]),
                         laurels=self.laurels(event["laurels"]))

    def _ev_out_of_cards(self, told: Told) -> str | None:
        event, names = told.event, told.names
        return self.text("ev_out_of_cards", who=self._who(event, names))

    def _ev_skipped(self, told: Told) -> str | None:
        event, names = told.event, told.names
        reason = event.get("reason", "blocked")
        if event.get("seat") is None:
            key = f"ev_skipped_neutral_{reason}" if event.get("card") is not None else "ev_skipped_neutral"
        else:
            key = f"ev_skipped_{reason}"
        return self.text(key, who=self._who(event, names), card=event.get("card"))

    def _ev_neutral_vote(self, told: Told) -> str | None:
        event, names = told.event, told.names
        return self.text("ev_neutral_vote", who=self._who(event, names), card=event["card"],
                         n=len(event.get("options") or []))

    def _ev_voted(self, told: Told) -> str | None:
        return None  # the board's list of who is still to vote says it; the choice stays secret

    def _ev_vote_result(self, told: Told) -> str | None:
        event, names = told.event, told.names
        votes = event.get("votes") or []
        tally = ", ".join(f"{self.player(s, names)}: {self._space_n(event, v)}" for s, v in enumerate(votes))
        key = "ev_vote_result_tie" if event.get("tie") else "ev_vote_result"
        return self.text(key, who=self._who(event, names), votes=tally)

    def _ev_race_stalled(self, told: Told) -> str | None:
        event, names = told.event, told.names
        left = ", ".join(self._listed(event, c, names) for c in event.get("chariots", []))
        return self.text("ev_race_stalled", chariots=left)

    def _ev_race_started(self, told: Told) -> str | None:
        event, names = told.event, told.names
        return self._race_started(event, names)

    def _ev_race_over(self, told: Told) -> str | None:
        event, names = told.event, told.names
        return self._race_over(event, names)

    @staticmethod
    def _space_n(event: dict, space) -> str:
        """The number a space had in the vote (its place among the event's options), else the space."""
        options = event.get("options") or []
        return str(options.index(space) + 1) if space in options else str(space)

    def _race_started(self, event: dict, names: list[str]) -> str:
        track = get_track(event["track"], event["direction"])
        grid = ", ".join(f"{ROMAN[i]} {self._listed(event, c, names)}" for i, c in enumerate(event["grid"]))
        lines = [self.text("ev_race_started", race=event["race"], races=event["races"],
                           track=self.track_title(track.name),
                           direction=self.direction(event["direction"]))]
        how = event.get("turn_order")
        if how == "seat" and event["grid"]:
            lines.append(self.text("ev_grid_last", who=self._listed(event, event["grid"][0], names),
                                   race=event["race"] - 1))
        elif how == "previous_results":
            lines.append(self.text("ev_grid_results", race=event["race"] - 1))
        lines.append(self.text("ev_grid", grid=grid))
        return "\n".join(lines)

    # -- the first board -------------------------------------------------------------------------------

    def opening_lines(self, view: dict, names: list[str]) -> list[str]:
        """Race 1's start: track and laps, the cards turned up for the start (ties turn again), who takes
        start space I, the start grid, and the neutral chariots' moves made before the first player's turn."""
        chariots = view.get("chariots") or []
        if not chariots:
            return []

        def who(c: int) -> str:
            return self.chariot(chariots[c]["label"], chariots[c]["owner"], names)

        track = get_track(view["track"], view["direction"])
        races = view.get("races", 1)
        if races > 1:
            lines = [self.text("opening_championship", races=races, track=self.track_title(track.name),
                               direction=self.direction(view["direction"]))]
        else:
            lines = [self.text("opening_single", track=self.track_title(track.name),
                               direction=self.direction(view["direction"]))]
        reveal = view.get("reveal") or []
        for k, shown in enumerate(reveal):
            cards = ", ".join(self.text("opening_card", who=who(c), value=v) for c, v in shown)
            if k == 0:
                lines.append(self.text("opening_reveal", cards=cards))
            else:
                tied = max(v for _, v in reveal[k - 1])
                lines.append(self.text("opening_reveal_tie", value=tied, cards=cards))
        grid = view.get("grid") or []
        if grid:
            top = next((v for c, v in (reveal[-1] if reveal else []) if c == grid[0]), None)
            if top is not None:
                key = "opening_first_tie" if len(reveal) > 1 else "opening_first"
                lines.append(self.text(key, who=who(grid[0]), value=top))
            lines.append(self.text("ev_grid", grid=", ".join(f"{ROMAN[i]} {who(c)}" for i, c in enumerate(grid))))
        for item in view.get("last") or []:  # chariots that drove before anybody was asked (neutral ones)
            if "by" in item:  # a player's decision: narrated by its own events
                continue
            c = item["chariot"]
            seat = chariots[c]["owner"]
            event = {"chariot": c, "seat": seat, "label": chariots[c]["label"]}
            if item.get("kind") == "move":
                line = self.narrate({"type": "moved", "card": item["card"], **event}, names)
            else:
                line = self.narrate({"type": "skipped", "reason": item.get("reason", "blocked"),
                                     "card": item.get("card"), **event}, names)
            if line:
                lines.append(line)
        return lines

    def _race_over(self, event: dict, names: list[str]) -> str:
        status = event.get("status") or []
        parts = []
        place = 0
        for c in event["ranking"]:
            who = self._listed(event, c, names)
            st = status[c] if c < len(status) else "finished"
            if st == "finished":
                place += 1
                parts.append(self.text("ev_rank_finished", place=self.place(place), who=who,
                                       laurels=event["laurels"][c]))
            else:
                parts.append(self.text(f"ev_rank_{st}" if st in ("disqualified", "removed", "stopped")
                                       else "ev_rank_stopped", who=who))
        lines = [self.text("ev_race_over", race=event["race"], ranking=" · ".join(parts))]
        races = event.get("races", 1)
        if races > 1:
            totals = event.get("totals") or []
            order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
            board = ", ".join(self.text("ev_total", name=self.player(s, names), laurels=totals[s]) for s in order)
            key = "ev_standings_final" if event["race"] >= races else "ev_standings"
            lines.append(self.text(key, race=event["race"], races=races, standings=board))
        return "\n".join(lines)

    def result_lines(self, result: dict, names: list[str]) -> list[str]:
        places, scores = result["places"], result["scores"]
        order = sorted(range(len(places)), key=lambda s: (places[s], s))
        what = self.text("the_race" if result.get("reason") == "race" else "the_championship")
        winners = [s for s in order if places[s] == 1]
        if not any(scores):
            lines = [self.text("result_nobody", what=what)]
        elif len(winners) == len(places):
            lines = [self.text("result_all_tied", what=what, laurels=self.laurels(scores[winners[0]]))]
        elif len(winners) > 1:
            shared = " & ".join(f"**{self.player(s, names)}**" for s in winners)
            lines = [self.text("result_shared", names=shared, what=what, laurels=self.laurels(scores[winners[0]]))]
        else:
            lines = [self.text("result_winner", name=self.player(winners[0], names), what=what,
                               laurels=self.laurels(scores[winners[0]]))]
        chariots = result.get("chariots") or []
        laurels = result.get("laurels") or []
        races = result.get("races") or []
        for s in order:
            details = []
            mine = [c for c, ch in enumerate(chariots) if ch["owner"] == s]
            if len(mine) > 1:
                details.append(", ".join(f"{chariots[c]['label']} {laurels[c]}" for c in mine))
            if len(races) > 1:
                per = [sum(r["laurels"][c] for c in mine) for r in races]
                details.append(self.text("result_per_race", per=" + ".join(str(p) for p in per)))
            detail = self.text("result_detail", detail="; ".join(details)) if details else ""
            lines.append(self.text("result_line", place=places[s], name=self.player(s, names),
                                   laurels=self.laurels(scores[s]), detail=detail))
        return lines


_NARRATORS: dict[str, Callable[[AveCaesarPresenter, Told], str | None]] = {
    "moved": AveCaesarPresenter._ev_moved,
    "new_lap": AveCaesarPresenter._ev_new_lap,
    "ave_caesar": AveCaesarPresenter._ev_ave_caesar,
    "alley_missed": AveCaesarPresenter._ev_alley_missed,
    "disqualified": AveCaesarPresenter._ev_disqualified,
    "finished": AveCaesarPresenter._ev_finished,
    "out_of_cards": AveCaesarPresenter._ev_out_of_cards,
    "skipped": AveCaesarPresenter._ev_skipped,
    "neutral_vote": AveCaesarPresenter._ev_neutral_vote,
    "voted": AveCaesarPresenter._ev_voted,
    "vote_result": AveCaesarPresenter._ev_vote_result,
    "race_stalled": AveCaesarPresenter._ev_race_stalled,
    "race_started": AveCaesarPresenter._ev_race_started,
    "race_over": AveCaesarPresenter._ev_race_over,
}


PRESENTER = AveCaesarPresenter()
