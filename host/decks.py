"""Players' own Kiválasztottak decks: kept per player (store/), checked against the book's deck rules
(``engines/kivalasztottak/decks.py``), shared as short codes, chosen for games and tournaments. No discord
import: ``cogs/decks.py`` is the Discord side.

A deck is named by its player; names are compared folded (case and accents do not matter). Where a deck is
asked for by text (``/kivalasztottak new deck:``, ``/deck new start:``, a tournament's ``deck=``), the text may
be a deck code, one of the player's deck names, or a starter deck (its id or its name)."""

from __future__ import annotations

from dataclasses import dataclass

from engines.kivalasztottak import decks as D
from host.errors import GameError
from host.locale import game_text

GAME = "kivalasztottak"
MAX_DECKS = 25  # a player's decks fit one select menu and one autocomplete list
MAX_NAME = 40
#: the user setting that holds the deck a player plays by default ("" or missing: the starter deck)
CHOSEN = "kivalasztottak_deck"


class DeckError(GameError):
    """A refusal about a deck, already in the asker's language."""


def text(key: str, lang: str | None, **fields) -> str:
    return game_text(GAME, key, lang, **fields)


@dataclass(frozen=True)
class Deck:
    """A deck as a player sees it: the spec the engine takes, what breaks the rules (empty: playable)."""

    name: str
    spec: dict
    preset: str | None = None  # a starter deck's id
    id: int | None = None  # a player's deck: its row (the editor's buttons name it)

    @property
    def problems(self) -> list[tuple[str, dict]]:
        return D.problems(self.spec)

    @property
    def code(self) -> str:
        return D.encode(self.spec)

    @property
    def size(self) -> int:
        return len(D.expand(self.spec["cards"]))

    @property
    def reserve_size(self) -> int:
        return len(D.expand(self.spec["reserve"]))

    @property
    def engine_value(self):
        """What the engine's ``decks`` option takes: the preset id, else the spec."""
        return self.preset or {"name": self.spec["name"], "cards": self.spec["cards"],
                               "reserve": self.spec["reserve"]}


def problem_lines(deck: Deck, lang: str | None) -> list[str]:
    """The deck's problems in the player's language (empty: the deck may be played)."""
    return [text(f"deck_problem_{code}", lang, **fields) for code, fields in deck.problems]


def presets() -> list[Deck]:
    return [Deck(spec["name"], D.normalise(spec), key) for key, spec in D.presets().items()]


def preset_named(name: str) -> Deck | None:
    want = D.fold(name)
    for key, spec in D.presets().items():
        if want in (D.fold(key), D.fold(spec["name"]), D.fold(spec["name_hu"])):
            return Deck(spec["name"], D.normalise(spec), key)
    return None


def check_name(name: str, lang: str | None) -> str:
    name = " ".join((name or "").split())
    if not 1 <= len(name) <= MAX_NAME:
        raise DeckError(text("deck_bad_name", lang, max=MAX_NAME))
    return name


class DeckBook:
    """The decks of every player (one store)."""

    def __init__(self, store) -> None:
        self.store = store

    async def list(self, user_id: int) -> list[Deck]:
        return [Deck(row["name"], {"name": row["name"], "cards": row["cards"].get("cards", []),
                                   "reserve": row["cards"].get("reserve", [])}, id=row["id"])
                for row in await self.store.decks(user_id, GAME)]

    async def by_id(self, user_id: int, deck_id: int, lang: str | None) -> Deck:
        """The player's deck of that row (a button of the editor); refused for another player's or a gone one."""
        deck = next((d for d in await self.list(user_id) if d.id == deck_id), None)
        if deck is None:
            raise DeckError(text("deck_gone", lang))
        return deck

    async def find(self, user_id: int, name: str) -> Deck | None:
        want = D.fold(name or "")
        return next((d for d in await self.list(user_id) if D.fold(d.name) == want), None)

    async def get(self, user_id: int, name: str, lang: str | None) -> Deck:
        deck = await self.find(user_id, name)
        if deck is None:
            raise DeckError(text("deck_not_found", lang, name=(name or "")[:MAX_NAME]))
        return deck

    async def save(self, user_id: int, name: str, spec: dict, lang: str | None, *, new: bool = False) -> Deck:
        """Store a deck (a new one refused when its name is taken or the player has too many). A deck that
        breaks the rules is kept too - a deck is built over several edits - but cannot be played."""
        name = check_name(name, lang)
        existing = await self.find(user_id, name)
        if new and existing is not None:
            raise DeckError(text("deck_exists", lang, name=existing.name))
        if existing is None and len(await self.list(user_id)) >= MAX_DECKS:
            raise DeckError(text("deck_too_many", lang, max=MAX_DECKS))
        spec = D.normalise({"name": name, "cards": spec["cards"], "reserve": spec["reserve"]})
        rows = len(spec["cards"]) + len(spec["reserve"])
        if rows > 200 or len(D.expand(spec["cards"])) + len(D.expand(spec["reserve"])) > 1000:
            raise DeckError(text("deck_too_big", lang))
        await self.store.save_deck(user_id, GAME, name, D.fold(name), {"cards": spec["cards"],
                                                                      "reserve": spec["reserve"]})
        return await self.find(user_id, name) or Deck(name, spec)

    async def change(self, user_id: int, deck: Deck, key: str, part: str, delta: int, lang: str | None) -> Deck:
        """One copy of card ``key`` more or less in the deck or (``part`` "reserve") the reserve deck."""
        spec = {"cards": [list(r) for r in deck.spec["cards"]], "reserve": [list(r) for r in deck.spec["reserve"]]}
        rows = spec[part]
        row = next((r for r in rows if r[0] == key), None)
        if row is None:
            if delta > 0:
                rows.append([key, delta])
        else:
            row[1] = max(0, min(D.MAX_COPIES, row[1] + delta))
        return await self.save(user_id, deck.name, spec, lang)

    async def delete(self, user_id: int, name: str, lang: str | None) -> str:
        deck = await self.get(user_id, name, lang)
        await self.store.delete_deck(user_id, GAME, D.fold(deck.name))
        settings = await self.store.user_settings(user_id)
        if D.fold(settings.get(CHOSEN, "")) == D.fold(deck.name):
            settings.pop(CHOSEN, None)
            await self.store.set_user_settings(user_id, settings)
        return deck.name

    async def resolve(self, user_id: int, wanted: str, lang: str | None) -> Deck:
        """A deck named by text: a deck code, one of the player's decks, or a starter deck."""
        wanted = (wanted or "").strip()
        if wanted.upper().startswith(D.CODE_PREFIX) and " " not in wanted:
            try:
                name = text("deck_shared", lang)
                return Deck(name, D.normalise(D.decode(wanted, name)))
            except ValueError:
                pass  # perhaps a deck named "KV..."
        found = await self.find(user_id, wanted)
        if found is not None:
            return found
        preset = preset_named(wanted)
        if preset is not None:
            return preset
        if wanted.upper().startswith(D.CODE_PREFIX):
            raise DeckError(text("deck_bad_code", lang))
        raise DeckError(text("deck_not_found", lang, name=wanted[:MAX_NAME]))

    async def playable(self, user_id: int, wanted: str, lang: str | None) -> Deck:
        """:meth:`resolve`, refused with its reasons unless the deck obeys the rules."""
        deck = await self.resolve(user_id, wanted, lang)
        lines = problem_lines(deck, lang)
        if lines:
            raise DeckError(text("deck_not_playable", lang, name=deck.name, problems=" ".join(lines)))
        return deck

    async def choose(self, user_id: int, name: str, lang: str | None) -> Deck:
        """The deck the player plays when a game does not name one (a starter deck, or a playable own one)."""
        deck = await self.playable(user_id, name, lang)
        settings = await self.store.user_settings(user_id)
        settings[CHOSEN] = deck.preset or deck.name
        await self.store.set_user_settings(user_id, settings)
        return deck

    async def fill(self, game: str, engine_options: dict, users: dict[int, int]) -> dict:
        """A Kiválasztottak game's engine options at its start: every seat whose deck was not named (None) and
        that a person plays gets that person's chosen deck; the engine completes the rest (its starter decks).
        Other games' options come back unchanged."""
        decks = engine_options.get("decks") if game == GAME else None
        if not isinstance(decks, list) or None not in decks:
            return engine_options
        decks = list(decks)
        for seat, deck in enumerate(decks):
            if deck is None and users.get(seat) is not None:
                chosen = await self.chosen(users[seat])
                if chosen is not None:
                    decks[seat] = chosen.engine_value
        return {**engine_options, "decks": D.complete(decks)}

    async def chosen(self, user_id: int) -> Deck | None:
        """The player's chosen deck, if any still playable (a deck edited into breaking the rules is not)."""
        name = (await self.store.user_settings(user_id)).get(CHOSEN)
        if not name:
            return None
        deck = await self.find(user_id, name) or preset_named(name)
        return deck if deck is not None and not deck.problems else None


TYPE_ORDER = ("tower", "adventurer", "action", "quest", "building", "ally", "obstacle", "event", "omen")


def deck_view(deck: Deck, lang: str | None) -> dict:
    """What the deck-list picture shows (``render.kivalasztottak.render_deck``): names in the player's language
    (Hungarian names in Hungarian, else English with the Hungarian beside), grouped by card type."""
    from engines.kivalasztottak.cards import card_defs
    defs = card_defs()
    hu = lang == "hu"
    sections = []
    for kind, rows in (("deck", deck.spec["cards"]), ("reserve", deck.spec["reserve"])):
        if kind == "reserve" and not rows:
            continue
        groups = []
        for card_type in TYPE_ORDER:
            cards = [{"count": n, "name": defs[k]["name_hu" if hu else "name_en"],
                      "other": None if hu else defs[k]["name_hu"],
                      "mp": defs[k].get("mp") if card_type not in ("building", "ally") else None}
                     for k, n in rows if k in defs and defs[k]["type"] == card_type]
            if cards:
                groups.append({"type": card_type, "count": sum(c["count"] for c in cards), "cards": cards})
        unknown = [{"count": n, "name": k, "other": None, "mp": None} for k, n in rows if k not in defs]
        if unknown:
            groups.append({"type": "event", "count": sum(c["count"] for c in unknown), "cards": unknown})
        sections.append({"kind": kind, "count": len(D.expand(rows)), "groups": groups})
    name = D.presets()[deck.preset]["name_hu"] if deck.preset and hu else deck.name
    return {"lang": lang or "en", "name": name, "size": deck.size, "reserve_size": deck.reserve_size,
            "problems": problem_lines(deck, lang), "code": deck.code, "sections": sections}
