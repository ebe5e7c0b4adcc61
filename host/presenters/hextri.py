"""HEX-TRI on Discord: the options of ``/hextri new``, moves as a choice in up to three steps (first the
figure, by its field; then the destination with its mana cost - the engine lists each once; then, when other
fields could pay it as well, who pays: a select of a bounded few ways, the default first), battle losses,
narration of moves, production and battles, and typed moves in field notation (``/game play H-C4 T-B5``, with
the paying fields after them: ``T-A1 H-A1 H-C3``, any way to pay, offered or not). Perfect information:
nothing is secret. Every sentence lives in ``data/locales/hextri/en.json``."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engines import IllegalAction
from engines.hextri import ENGINE
from host.errors import GameError
from host.panels import Choice
from host.presenters.base import OptionSpec, Presenter, Refined, Told

LETTERS = "ABCDEF"
OFF = "off"
FREE = "free"
REASONS = ("leader_down", "first_blood", "last_leader", "leaders_fell_together", "round_limit", "stalemate",
           "first_blood_play_on")
STUCK = ("no_mana", "leader_blocked", "blocked")
#: a panel offering this many ways to pay one move may not hold every way (the host asks for at most 25)
MANY_WAYS = 25
#: a button's label and a select option's description, at most (Discord's limits)
MAX_LABEL, MAX_DESCRIPTION = 80, 100


def _fit(parts: list[str], room: int) -> str:
    """``parts`` joined by commas within ``room`` characters: as many as fit, then "… +N" for the rest."""
    out = ", ".join(parts)
    if len(out) <= room:
        return out
    for k in range(len(parts) - 1, 0, -1):
        out = ", ".join(parts[:k]) + f", … +{len(parts) - k}"
        if len(out) <= room:
            return out
    return parts[0][:max(room, 0)]
#: a field as typed: "off", "H-C4", "h c4", "hex c4", "TB5", "c4"
FIELD = re.compile(r"(?<![a-z0-9])(?:off(?:-?board)?|(?:hex|tri|h|t)?[\s_-]*[a-z][\s-]*\d{1,2})(?![a-z0-9])")
#: a field name as the board spells it (what ``ENGINE.parse_field`` takes apart), to say what is wrong with one
FIELD_NAME = re.compile(r"(HEX|TRI|H|T)?[\s\-_]*([A-Z])\s*-?\s*(\d{1,2})")
#: words that may stand around fields in a typed move: English, Hungarian (also the case endings typed after a
#: field: "H-D4-ről T-D8-ra"), Polish
FILLER = {"move", "moves", "from", "to", "my", "the", "a", "go", "->", "→", "-", ",", "onto", "on", "at", "enter",
          "enters",
          "az", "lép", "lépek", "lepek", "lépés", "mozgat", "mozgatom", "innen", "ide", "oda", "mező", "mezőn",
          "mezőről", "mezőre", "belép", "behoz", "behozom", "-ről", "-ról", "-re", "-ra", "-ba", "-be", "-ből", "-ból",
          "-hoz", "-hez", "-höz", "-ig", "-n", "-on", "-en", "-ön", "-nál", "-nél", "-t",
          "pay", "paid", "paying", "fizet", "fizetve", "fizetem", "mannával", "manna", "mana", "płacę", "place",
          "płać", "zapłać", "maną",
          "ruch", "ruszam", "rusz", "idę", "idź", "z", "ze", "na", "do", "mój", "moj", "moim", "pole", "pola",
          "wejdź", "wejdz", "wejście", "wejscie", "wchodzę", "wchodze", "wprowadź", "wprowadz"}
LEADER_WORDS = {"leader", "king", "👑",
                "vezér", "vezer", "vezért", "vezert", "vezérrel", "vezérem", "vezéremet", "vezéreddel",
                "wódz", "wodz", "wodza", "wodzem", "przywódca", "przywódcę", "przywódcą", "lider", "lidera",
                "liderem", "król", "króla", "królem"}
#: parts of the leader's word in any of its forms, for the battle-loss answers ("lose leader", "vezér elesik")
LEADER_STEMS = ("leader", "king", "👑", "vezér", "vezer", "wódz", "wodz", "przywódc", "przywodc", "lider", "król",
                "krol")
FIGURE_WORDS = {"figure", "ordinary", "piece", "pawn",
                "bábu", "babu", "bábut", "bábuval", "bábum", "bábumat", "egyszerű", "figura", "figurát", "figurával",
                "pionek", "pionka", "pionkiem", "zwykły", "zwykly", "zwykłego", "zwykłym", "figurę", "figurą"}
#: words that stand for "off the board" as the origin of a move ("be T-A1", "spoza T-A1"); "off" itself is a field
OFF_WORDS = {"be", "kívülről", "kivulrol", "kintről", "kintrol", "spoza", "poza"}
OFF_WORD = re.compile(r"(?<![\w-])(?:" + "|".join(sorted(OFF_WORDS, key=len, reverse=True)) + r")(?![\w-])")
PASS_WORDS = {"pass", "p", "skip", "pass this go", "skip this go",
              "passz", "passzolok", "passzol", "kihagyom", "passz most",
              "pas", "pasuję", "pasuje", "spasuj", "spasuję", "spasuje"}
#: battle-loss answers: the leader falls with them / the leader stays
LOSE_WORDS = re.compile(r"\b(lose|sacrifice|die|dies|yes|"
                        r"veszít|veszit|elveszít|elveszit|elveszítem|feláldoz|feláldozom|elesik|igen|köztük|"
                        r"trać|trac|tracę|trace|stracić|poświęć|poswiec|poświęcam|ginie|tak)\b")
KEEP_WORDS = re.compile(r"\b(keep|save|no|spare|"
                        r"megtart|megtartom|tartom|marad|megment|megmentem|nem|"
                        r"zachowaj|zachowuję|zachowuje|zostaje|ratuj|nie)\b")


def _spec(name: str) -> dict:
    return ENGINE.options_spec()[name]


@dataclass
class _Told(Told):
    """A HEX-TRI event being narrated; ``who``: the seat that acted, named."""

    presenter: HexTriPresenter

    @property
    def who(self) -> str:
        return self.presenter.who(self.seat, self.names)


class HexTriPresenter(Presenter):
    game = "hextri"
    has_private = False
    two_step = True

    @property
    def seat_labels(self) -> list[str]:
        return [self.text(f"seat_{i}") for i in range(6)]

    @property
    def options(self) -> list[OptionSpec]:
        radius, limit = _spec("radius"), _spec("round_limit")
        return [
            OptionSpec("players", "int", self.text("opt_players"), 2, min_value=ENGINE.min_players,
                       max_value=ENGINE.max_players),
            OptionSpec("radius", "int", self.text("opt_radius"), radius["default"], min_value=radius["min"],
                       max_value=radius["max"]),
            OptionSpec("leader_escape", "bool", self.text("opt_leader_escape"), _spec("leader_escape")["default"]),
            OptionSpec("victory", "choice", self.text("opt_victory"), _spec("victory")["default"],
                       choices=[(self.text(f"victory_{v}"), v) for v in _spec("victory")["choices"]]),
            OptionSpec("round_limit", "int", self.text("opt_round_limit"), limit["default"],
                       min_value=limit["min"], max_value=limit["max"]),
        ]

    def engine_options(self, raw: dict, opponent: str = "open") -> tuple[int | None, dict]:
        """``players`` is the number of seats (2 unless given); the rest are the engine's own options."""
        values = {k: v for k, v in raw.items() if v is not None}
        players = values.pop("players", 2)
        if not isinstance(players, int) or not ENGINE.min_players <= players <= ENGINE.max_players:
            raise GameError(self.text("bad_players", min=ENGINE.min_players, max=ENGINE.max_players))
        return players, values

    # -- words for things -----------------------------------------------------------------------------

    def count(self, noun: str, n: int) -> str:
        """"1 figure", "3 figures" (``noun``: figure, ordinary, step, round). Besides one and many each table
        has a "few" form, for 2-4, 22-24, ... but not 12-14 (Polish: "2 pionki", "5 pionków")."""
        if n == 1:
            form = "1"
        elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            form = "few"
        else:
            form = "n"
        return self.text(f"{noun}_{form}", n=n)

    def score_text(self, details: dict, seat: int) -> str | None:
        scores = details.get("scores") or []
        return self.text("end_score", figures=self.count("figure", scores[seat])) if seat < len(scores) else None

    def who(self, seat: int | None, names: list[str]) -> str:
        if seat is None or not 0 <= seat < len(names):
            return "?"
        return self.text("who", name=names[seat], letter=LETTERS[seat])

    @staticmethod
    def _fields(sources: list[str]) -> str:
        """The paying fields of a move: "H-C4 ×2, H-D4" (the free step left out)."""
        paid = [s for s in sources if s != FREE]
        counted = {s: paid.count(s) for s in dict.fromkeys(paid)}
        return ", ".join(f + (f" ×{n}" if n > 1 else "") for f, n in counted.items())

    def _cost(self, cost: int, sources: list[str]) -> str:
        if FREE in sources:
            return self.text("cost_free") if cost == 0 else self.text("cost_free_plus", mana=cost)
        return self.text("cost", mana=cost)

    def _group(self, view: dict, origin: str, leader: bool) -> str:
        me = view["players"][view["seat"]] if view.get("seat") is not None else {}
        if origin == OFF:
            if leader:
                return self.text("group_enter_leader")
            return self.text("group_enter", waiting=me.get("waiting", 0) - (1 if me.get("leader") == OFF else 0))
        if leader:
            return self.text("group_leader", field=origin)
        here = next((p["count"] for p in view.get("pieces", ())
                     if p["field"] == origin and p["seat"] == view.get("seat")), 0)
        if me.get("leader") == origin:
            here -= 1
        return self.text("group_figure", field=origin, count=here)

    # -- buttons ---------------------------------------------------------------------------------------

    def describe(self, view: dict, action: dict, index: int) -> Choice:
        kind = action["type"]
        if kind == "pass":
            return Choice(index, self.text("label_pass"), self.text("group_pass"), style="secondary",
                          description=self.text("desc_pass"))
        if kind == "losses":
            count = action["count"]
            key = ("label_lose_leader_1" if count == 1 else "label_lose_leader") if action["leader"] \
                else "label_keep_leader"
            return Choice(index, self.text(key, count=count, figures=self.count("ordinary", count)),
                          self.text("group_losses", field=action["field"]),
                          style="danger" if action["leader"] else "success",
                          description=self.text("desc_losses", field=action["field"],
                                                     figures=self.count("figure", action["count"])))
        if kind != "move":
            return super().describe(view, action, index)
        group = self._group(view, action["from"], action["leader"])
        legal = view.get("legal") or ()
        listed = legal[index] if 0 <= index < len(legal) else action
        # a way to pay other than the listed (default) one: the label names the paying fields
        other = listed["type"] == "move" and self.way_key(listed) != self.way_key(action)
        return self._describe_move(view, action, index, self._attack(self._enemies(view).get(action["to"], ())),
                                   group, None, other)

    def describe_all(self, view: dict, legal: list[dict]) -> list[Choice]:
        """One choice per figure and destination (the engine lists each once): a figure may have hundreds,
        so who stands where (and the words of an attack there), the group names and the ways of paying are
        worked out once for all of them. A move that other fields could pay as well opens the ways to pay when
        chosen (``Choice.more``)."""
        enemies = self._enemies(view)
        attacks: dict[str, str] = {}
        groups: dict[tuple[str, bool], str] = {}
        paying: dict[tuple, tuple[str, str]] = {}  # many moves are paid the same way
        # the label's sentence once, its fields filled in per move (thousands of moves, one sentence)
        label = self.text("label_move", to="\x00", cost="\x01")
        out = []
        for index, action in enumerate(legal):
            if action["type"] != "move":
                out.append(self.describe(view, action, index))
                continue
            key = (action["from"], action["leader"])
            group = groups.get(key)
            if group is None:
                group = groups[key] = self._group(view, *key)
            attack = attacks.get(action["to"])
            if attack is None:
                attack = attacks[action["to"]] = self._attack(enemies.get(action["to"], ()))
            out.append(self._describe_move(view, action, index, attack, group, paying, label=label))
        return out

    def describe_variants(self, view: dict, action: dict, index: int, variants: list[dict]) -> list[Choice]:
        """The third step of a move that more than one choice of fields could pay: who pays. One select,
        "T-B5 (3 mana): who pays?", the default way first; each way's label names its paying fields and its
        description the mana they keep."""
        if action["type"] != "move" or len(variants) < 2:
            return super().describe_variants(view, action, index, variants)
        sources = action.get("sources") or []
        cost = self._cost(action["cost"], sources)
        group = self.text("group_who_pays", to=action["to"], cost=cost)
        mana = view.get("mana") or {}
        default_fields = list(dict.fromkeys(f for f in sources if f != FREE))
        out = []
        for n, way in enumerate(variants):
            paid = way.get("sources") or []
            given = {f: paid.count(f) for f in dict.fromkeys(s for s in paid if s != FREE)}
            # the fields giving most first; as many as fit a button's 80 characters
            ranked = sorted(given.items(), key=lambda kv: -kv[1])
            room = MAX_LABEL - (len(self.text("label_way_default", fields="")) if n == 0 else 0)
            fields = _fit([f + (f" ×{k}" if k > 1 else "") for f, k in ranked], room)
            label = self.text("label_way_default", fields=fields) if n == 0 else fields
            spared = [f for f in default_fields if f not in given]
            head = self.text("desc_way_default") + " · " if n == 0 else (
                self.text("desc_way_spares", fields=_fit(spared, 40)) + " · " if spared else "")
            room = MAX_DESCRIPTION - len(head) - len(self.text("desc_way_left", fields=""))
            left = _fit([f"{f} {mana.get(f, 0) - k}" for f, k in ranked], room)
            detail = head + self.text("desc_way_left", fields=left)
            out.append(Choice(index, label, group, style="primary", description=detail, variant=n))
        if len(variants) >= MANY_WAYS:
            # perhaps not every way: the select's placeholder says how to name any other
            for choice in out:
                choice.group = self.text("group_who_pays_more", to=action["to"], cost=cost)
        return out

    @staticmethod
    def way_key(action: dict) -> tuple:
        """What a move changes on the board, for telling apart ways to pay it: the figure, its destination,
        how much mana each field gives (the order of the steps does not matter) and whether the free step is
        used. Two moves with the same key leave the same board and the same mana marks."""
        sources = action.get("sources") or ()
        return (action["from"], action["leader"], action["to"], tuple(sorted(s for s in sources if s != FREE)),
                FREE in sources)

    @staticmethod
    def _enemies(view: dict) -> dict[str, list[dict]]:
        """Field -> the other players' pieces on it."""
        found: dict[str, list[dict]] = {}
        for p in view.get("pieces", ()):
            if p["seat"] != view.get("seat"):
                found.setdefault(p["field"], []).append(p)
        return found

    def _paying(self, cost: int, sources: list[str], more: bool = False) -> tuple[str, str]:
        """The cost label and the description of how a move is paid (steps, mana sources, free step; with
        ``more``, that the player picks who pays next)."""
        paid = [s for s in sources if s != FREE]
        detail = [self.text("desc_steps", steps=self.count("step", len(sources)))]
        if paid:
            detail.append(self.text("desc_choose_payer") if more else
                          self.text("desc_sources", fields=self._fields(sources)))
        if FREE in sources:
            detail.append(self.text("desc_free"))
        return self._cost(cost, sources), " · ".join(detail)

    def _attack(self, enemies) -> str:
        """The words a move's description ends with when it attacks ``enemies`` (the other players' pieces on its
        destination): " · attacks A×2 👑"; "" for none."""
        if not enemies:
            return ""
        return " · " + self.text("desc_attack", who=", ".join(
            f"{LETTERS[p['seat']]}×{p['count']}" + (" 👑" if p["leader"] else "") for p in enemies))

    def _describe_move(self, view: dict, action: dict, index: int, attack: str, group: str,
                       paying: dict | None = None, other_way: bool = False, label: str | None = None) -> Choice:
        """One move's choice; ``attack``: :meth:`_attack` of its destination. ``paying``: descriptions of ways to
        pay already made (shared by a panel's moves); ``label``: the label's sentence with ``\\x00`` for the
        destination and ``\\x01`` for the cost."""
        dest, sources = action["to"], action.get("sources") or []
        more = bool(action.get("other_ways")) and not other_way
        paying = {} if paying is None else paying
        # a move whose payer is chosen next is described by its steps alone, not by its default's fields
        key = (action["cost"], len(sources), FREE in sources, True) if more else (action["cost"], tuple(sources))
        got = paying.get(key)
        if got is None:
            got = paying[key] = self._paying(action["cost"], sources, more)
        cost, paid_detail = got
        if other_way:
            label = self.text("label_pay", to=dest, fields=self._fields(sources) or self.text("cost_free"))
        elif label is not None:
            label = label.replace("\x00", dest).replace("\x01", cost)
        else:
            label = self.text("label_move", to=dest, cost=cost)
        return Choice(index, label, group, style="primary", emoji="⚔️" if attack else None,
                      description=paid_detail + attack, more=more)

    def prompt(self, view: dict) -> str:
        seat = view.get("seat")
        legal = view.get("legal") or []
        if view.get("phase") == "losses" and legal and legal[0]["type"] == "losses":
            a = legal[0]
            before = next((int(b["before"][str(seat)]) for b in (view.get("battle") or {}).get("battles", ())
                           if b["field"] == a["field"]), a["count"])
            return self.text("prompt_losses", field=a["field"], count=a["count"],
                             figures=self.count("figure", before))
        if view.get("phase") != "move" or seat is None:
            return self.text("prompt_other")
        me = view["players"][seat]
        limit = view.get("round_limit") or 0
        rnd = self.text("round_of", round=view["round"], limit=limit) if limit else \
            self.text("round_only", round=view["round"])
        free = self.text("prompt_free") if me.get("free_step") and me.get("leader") is not None else ""
        return self.text("prompt_move", round=rnd, mana=me.get("mana", 0), free=free)

    # -- typed moves -----------------------------------------------------------------------------------

    def parse(self, view: dict, choices: list[Choice], text: str) -> int | Refined:
        """``/game play``: "pass"; a move as "<from> <to>" in field notation ("H-C4 T-B5", "off T-A1"),
        "leader" to move the leader, or just the destination when only one figure can get there; the fields
        that pay may follow ("T-A1 H-A1 H-C3": one per paid step in any order, or one field for all of
        them), any way to pay, listed or not (:class:`Refined`), else the default way is taken; in a battle
        "keep" (the leader stays) or "lose leader"."""
        legal = view.get("legal") or []
        words = self._words(text)
        if not words:
            raise ValueError(self.text("parse_empty"))
        if words in PASS_WORDS or words == self._words(self.text("label_pass")):
            return next(i for i, a in enumerate(legal) if a["type"] == "pass") if any(
                a["type"] == "pass" for a in legal) else self._refuse("parse_no_pass")
        if legal and legal[0]["type"] == "losses":
            return self._parse_losses(legal, choices, words, text)
        words = OFF_WORD.sub("off", words)
        leader = self._leader_word(words)
        fields = [self._field(view, m.group(0)) for m in FIELD.finditer(words)]
        moves = [(i, a) for i, a in enumerate(legal) if a["type"] == "move"]
        if not fields:
            raise ValueError(self.text("parse_fields"))
        if not moves:
            raise ValueError(self.text("parse_no_moves"))
        if len(fields) == 1:
            return self._parse_destination(view, moves, fields[0], leader)
        return self._parse_move(view, moves, fields, leader)

    def _leader_word(self, words: str) -> bool | None:
        """Whether the typed words (besides fields) ask for the leader (True), an ordinary figure (False) or
        neither (None); ValueError for a word that is none of those."""
        leader = None
        for word in FIELD.sub(" ", words).split():
            if word in LEADER_WORDS:
                leader = True
            elif word in FIGURE_WORDS:
                leader = False
            elif word not in FILLER:
                raise ValueError(self.text("parse_unknown", word=word))
        return leader

    def _parse_destination(self, view: dict, moves: list[tuple[int, dict]], dest: str, leader: bool | None) -> int:
        """A move typed as its destination only: the one figure (of the kind asked for) that can get there."""
        found = [(i, a) for i, a in moves if a["to"] == dest and (leader is None or a["leader"] == leader)]
        if not found:
            self._refuse_occupied(view, dest)
            raise ValueError(self.text("parse_unreachable", to=dest))
        origins = {(a["from"], a["leader"]) for _, a in found}
        if len(origins) > 1:
            ordered = sorted(origins, key=lambda x: (x[0] != OFF, x))
            example = self._typed(*ordered[0])
            raise ValueError(self.text("parse_which", to=dest, example=example, origins=", ".join(
                self._origin(o, lead) for o, lead in ordered)))
        return found[0][0]

    def _parse_move(self, view: dict, moves: list[tuple[int, dict]], fields: list[str],
                    leader: bool | None) -> int | Refined:
        """A move typed as "<from> <to>", then maybe the fields that pay."""
        origin, dest, paid = fields[0], fields[1], fields[2:]
        if OFF in paid:
            raise ValueError(self.text("parse_fields"))
        mine = [(i, a) for i, a in moves if a["from"] == origin]
        if not mine:
            raise ValueError(self.text("parse_no_figure", field=origin) if origin != OFF
                             else self.text("parse_none_waiting"))
        if leader is None:  # an ordinary figure unless only the leader can go
            kinds = {a["leader"] for _, a in mine}
            leader = kinds == {True}
        mine = [(i, a) for i, a in mine if a["leader"] == leader]
        if not mine:
            raise ValueError(self.text("parse_no_leader", field=origin) if leader
                             else self.text("parse_only_leader", field=origin))
        found = [(i, a) for i, a in mine if a["to"] == dest]
        if not found:
            self._refuse_occupied(view, dest)
            raise ValueError(self.text("parse_cannot_reach", who=self._origin(origin, leader, hint=False), to=dest))
        if not paid:
            return found[0][0]
        return self._way(view, found[0], paid, dest)

    def _way(self, view: dict, found: tuple[int, dict], paid: list[str], dest: str) -> int | Refined:
        """The listed move ``found`` (index, action) paid from the typed fields ``paid``: one field per paid
        step in any order, or a single field for every step. The listed action itself when that is its
        default way, else the move with those sources (the engine checks them and finds the order and path
        that fit). The mistakes the view shows are refused here, in the game's language."""
        index, listed = found
        cost, default = listed["cost"], listed.get("sources") or []
        if not cost:
            raise ValueError(self.text("parse_pay_free", to=dest))
        if len(paid) == 1 and cost > 1:
            paid = paid * cost
        ways = self._fields(default)
        if len(paid) != cost:
            raise ValueError(self.text("parse_pay_count", to=dest, cost=self.text("cost", mana=cost), ways=ways))
        if sorted(paid) == sorted(s for s in default if s != FREE):
            return index
        mana = view.get("mana") or {}
        holders: dict[str, set[int]] = {}
        for p in view.get("pieces", ()):
            holders.setdefault(p["field"], set()).add(p["seat"])
        for field in dict.fromkeys(paid):
            # mana is taken only where the mover's own figures stand alone (or from under the mover on its
            # way: an empty field he crosses); never more than a field holds
            if holders.get(field, {view.get("seat")}) != {view.get("seat")} or paid.count(field) > mana.get(field, 0):
                raise ValueError(self.text("parse_pay_way", to=dest, fields=self._fields(paid), ways=ways))
        sources = list(default)
        slots = [i for i, s in enumerate(default) if s != FREE]
        for i, field in zip(slots, paid):
            sources[i] = field
        return Refined(index, {**listed, "sources": sources})

    def _refuse_occupied(self, view: dict, dest: str) -> None:
        """The engine's reason for a TRI that nobody can enter: a triangle holds one figure."""
        if dest.startswith("T-") and any(p["field"] == dest for p in view.get("pieces", ())):
            raise ValueError(self.text("parse_occupied", to=dest))

    @staticmethod
    def _words(text: str) -> str:
        """Typed text made comparable: lower case, a copied label's "(2 mana)" and arrows and commas gone."""
        words = re.sub(r"\([^)]*\)", " ", text.lower())
        return " ".join(words.replace("→", " ").replace("->", " ").replace(",", " ").split())

    def _field(self, view: dict, typed: str) -> str:
        """The canonical name of a typed field, or ValueError saying (in the game's language) what is wrong."""
        try:
            return ENGINE.parse_field(view, typed)
        except IllegalAction:
            pass
        m = FIELD_NAME.fullmatch(typed.strip().upper())
        if not m:
            raise ValueError(self.text("parse_bad_field", text=typed.strip()))
        prefix, letter, number = m.group(1), m.group(2), int(m.group(3))
        if prefix:
            raise ValueError(self.text("parse_no_such_field", field=f"{prefix[0]}-{letter}{number}"))
        hexname, triname = f"H-{letter}{number}", f"T-{letter}{number}"
        try:
            ENGINE.parse_field(view, hexname), ENGINE.parse_field(view, triname)
        except IllegalAction:
            raise ValueError(self.text("parse_no_such_field", field=f"{letter}{number}")) from None
        raise ValueError(self.text("parse_hex_or_tri", hexname=hexname, triname=triname))

    def _typed(self, origin: str, leader: bool) -> str:
        """How to type a figure's origin: "H-C4", "off", "leader H-D4" (in the game's language)."""
        where = self.text("typed_off") if origin == OFF else origin
        return f"{self.text('typed_leader')} {where}" if leader else where

    def _origin(self, origin: str, leader: bool, hint: bool = True) -> str:
        """"a figure on H-C4", "your leader from off the board (`leader off`)"."""
        if origin == OFF:
            key = "origin_off_leader" if leader else "origin_off"
        else:
            key = "origin_leader" if leader else "origin_figure"
        text = self.text(key, field=origin)
        if hint and (leader or origin == OFF):
            text += " " + self.text("origin_hint", typed=self._typed(origin, leader))
        return text

    def _parse_losses(self, legal: list[dict], choices: list[Choice], words: str, text: str) -> int | Refined:
        lose = LOSE_WORDS.search(words) and any(stem in words for stem in LEADER_STEMS)
        keep = KEEP_WORDS.search(words)
        if lose and not keep:
            return next(i for i, a in enumerate(legal) if a["leader"])
        if keep and not lose:
            return next(i for i, a in enumerate(legal) if not a["leader"])
        try:
            return super().parse({}, choices, text)
        except ValueError:
            raise ValueError(self.text("parse_losses")) from None

    def _refuse(self, key: str) -> int:
        raise ValueError(self.text(key))

    # -- narration -------------------------------------------------------------------------------------

    def confirm(self, view: dict, action: dict, legal: list[dict]) -> str | None:
        """A pass after everyone else has passed in a row ends the movement phase: asked first when the
        player could still move."""
        if action["type"] != "pass" or view.get("phase") != "move":
            return None
        alive = sum(1 for p in view.get("players") or [] if p.get("alive"))
        if view.get("passes", 0) >= alive - 1 and any(a["type"] != "pass" for a in legal):
            return self.text("confirm_pass_phase")
        return None

    def narrate(self, event: dict, names: list[str]) -> str | None:
        told = _Told(event, names, self)
        narrator = _NARRATORS.get(told.kind)
        return narrator(self, told) if narrator is not None else None

    # -- the narration of each kind of event (_NARRATORS) -------------------------------------------------------

    def _ev_cannot_move(self, told: _Told) -> str | None:
        why = told.event.get("why")
        if why in STUCK:
            return self.text(f"ev_cannot_move_{why}", who=told.who)
        return self.text("ev_cannot_move", who=told.who)

    def _ev_move(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        path = " → ".join(event["path"][1:]) if event["from"] == OFF else " → ".join(event["path"])
        cost = self._cost(event["cost"], event.get("sources") or [])
        if event["from"] == OFF:
            key = "ev_enter_leader" if event["leader"] else "ev_enter"
        else:
            key = "ev_move_leader" if event["leader"] else "ev_move"
        return self.text(key, who=who, path=path, cost=cost)

    def _ev_who_only(self, told: _Told) -> str | None:
        kind, who = told.kind, told.who
        return self.text(f"ev_{kind}", who=who)

    def _ev_round(self, told: _Told) -> str | None:
        event, names = told.event, told.names
        return self.text("ev_round", round=event["round"], who=self.who(event["first"], names))

    def _ev_figures_return(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        return self.text("ev_figures_return", who=who, figures=self.count("figure", event["count"]))

    def _ev_production(self, told: _Told) -> str | None:
        event, names = told.event, told.names
        return self._production(event, names)

    def _ev_choose_losses(self, told: _Told) -> str | None:
        event, names = told.event, told.names
        # each player is told the battle where his own leader stands (older events lack "fields")
        where = event.get("fields") or {}
        by_field: dict[str, list[int]] = {}
        for s in event["seats"]:
            field = where.get(str(s)) or ", ".join(b["field"] for b in event["battles"]
                                                   if b["losses"].get(str(s)))
            by_field.setdefault(field, []).append(s)
        parts = [self.text("choose_losses_part", who=", ".join(self.who(s, names) for s in seats), field=f)
                 for f, seats in by_field.items()]
        return self.text("ev_choose_losses", parts="; ".join(parts))

    def _ev_battle(self, told: _Told) -> str | None:
        event, names = told.event, told.names
        return self._battle(event, names)

    def _ev_encircled(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        key = "ev_encircled_leader" if event["leader"] else "ev_encircled"
        line = self.text(key, who=who, figures=self.count("figure", event["count"]), field=event["field"])
        # a fallen leader's figures do not sit out: his whole team leaves (the "eliminated" line says so)
        ordinary = event["count"] - (1 if event["leader"] else 0)
        return line + (self._sit_out(ordinary) if ordinary and not event["leader"] else
                       self._mana_left(event["count"]))

    def _ev_eliminated(self, told: _Told) -> str | None:
        event, names, who = told.event, told.names, told.who
        by = ", ".join(self.who(s, names) for s in event.get("by") or ())
        n = event["figures_removed"]
        if not n:
            return self.text("ev_eliminated_by_alone" if by else "ev_eliminated_alone", who=who, by=by)
        return self.text("ev_eliminated_by" if by else "ev_eliminated", who=who,
                         figures=self.count("figure", n), by=by)

    def _ev_champion(self, told: _Told) -> str | None:
        event, names, seat, who = told.event, told.names, told.seat, told.who
        others = [s for s in event.get("playing_on") or () if s != seat]
        if len(others) < 2:
            return self.text("ev_champion_end", who=who)
        return self.text("ev_champion", who=who, others=", ".join(self.who(s, names) for s in others))

    def _ev_game_over(self, told: _Told) -> str | None:
        event, names = told.event, told.names
        return self._game_over(event["reason"], event.get("winners") or [], names, event.get("places") or [])

    def _sit_out(self, n: int) -> str:
        """The note after a loss: the removed figures leave 1 mana each and sit out the next round."""
        return self.text("sit_out_1" if n == 1 else "sit_out_n", figures=self.count("figure", n))

    def _mana_left(self, n: int) -> str:
        return self.text("mana_left_1" if n == 1 else "mana_left_n", figures=self.count("figure", n))

    def _production(self, event: dict, names: list[str]) -> str:
        per: dict[int, list[dict]] = {}
        for f in event["fields"]:
            per.setdefault(f["seat"], []).append(f)
        if not per:
            return self.text("ev_production_none", round=event["round"])
        parts = []
        for seat in sorted(per):
            fields = ", ".join(f"{f['field']} +{f['mana']}" for f in per[seat])
            parts.append(self.text("production_part", who=self.who(seat, names),
                                   total=sum(f["mana"] for f in per[seat]), fields=fields))
        return self.text("ev_production", round=event["round"], parts="; ".join(parts))

    def _battle(self, event: dict, names: list[str]) -> str:
        before = {int(s): n for s, n in event["before"].items()}
        losses = {int(s): n for s, n in event["losses"].items()}
        sides = " · ".join(self.text("battle_side", who=self.who(s, names), count=n) for s, n in before.items())
        if not any(losses.values()):
            return self.text("ev_battle_standoff", field=event["field"], sides=sides)
        lost = ", ".join(self.text("battle_loss", who=self.who(s, names), count=n)
                         for s, n in losses.items() if n)
        fallen_seats = set(event.get("leaders_lost") or ())  # their whole team leaves the board too
        left = [s for s in before if before[s] - losses.get(s, 0) > 0 and s not in fallen_seats]
        if len(left) == 1:
            after = self.text("battle_holds", who=self.who(left[0], names), field=event["field"])
        elif left:
            after = self.text("battle_contested")
        else:
            after = self.text("battle_empty")
        fallen = "".join(self.text("battle_leader_falls", who=self.who(s, names))
                         for s in event.get("leaders_lost") or ())
        # the losses of players still in the game sit out; a fallen leader's team leaves for good
        sitting = {s: n for s, n in losses.items() if n and s not in fallen_seats}
        if not fallen_seats:
            note = self._sit_out(sum(sitting.values()))
        else:
            note = self._mana_left(sum(losses.values()))
            if sitting:
                note += self.text("sit_out_who_1" if sum(sitting.values()) == 1 else "sit_out_who_n",
                                  who=", ".join(self.who(s, names) for s in sitting))
        return self.text("ev_battle", field=event["field"], sides=sides, lost=lost, after=after,
                         fallen=fallen) + note

    def _game_over(self, reason: str, winners: list[int], names: list[str], places: list[int]) -> str:
        why = self.text(f"reason_{reason}") if reason in REASONS else reason
        if not winners or len(winners) == len(places):
            return self.text("ev_game_over_draw", reason=why)
        who = " & ".join(self.who(s, names) for s in winners)
        return self.text("ev_game_over" if len(winners) == 1 else "ev_game_over_shared", who=who, reason=why)

    def result_lines(self, result: dict, names: list[str]) -> list[str]:
        places = result.get("places", [])
        scores = result.get("scores", [])
        mana = result.get("mana", [0] * len(places))
        winners = result.get("winners") or [s for s, p in enumerate(places) if p == 1]
        rounds = self.count("round", int(result.get("round") or 0))
        if not winners or len(winners) == len(places):
            head = self.text("result_draw", rounds=rounds)
        else:
            head = self.text("result_winner" if len(winners) == 1 else "result_shared", rounds=rounds,
                             who=" & ".join(self.who(s, names) for s in winners))
        lines = [head]
        for s in sorted(range(len(places)), key=lambda s: (places[s], s)):
            if s >= len(names):
                continue
            lines.append(self.text("result_line", place=places[s], who=self.who(s, names),
                                   figures=self.count("figure", scores[s]),
                                   mana=mana[s] if s < len(mana) else 0))
        return lines


_NARRATORS: dict[str, Callable[[HexTriPresenter, _Told], str | None]] = {
    "move": HexTriPresenter._ev_move,
    "pass": HexTriPresenter._ev_who_only,
    "cannot_move": HexTriPresenter._ev_cannot_move,
    "losses_chosen": HexTriPresenter._ev_who_only,
    "round": HexTriPresenter._ev_round,
    "figures_return": HexTriPresenter._ev_figures_return,
    "production": HexTriPresenter._ev_production,
    "choose_losses": HexTriPresenter._ev_choose_losses,
    "battle": HexTriPresenter._ev_battle,
    "encircled": HexTriPresenter._ev_encircled,
    "eliminated": HexTriPresenter._ev_eliminated,
    "champion": HexTriPresenter._ev_champion,
    "game_over": HexTriPresenter._ev_game_over,
}

PRESENTER = HexTriPresenter()
