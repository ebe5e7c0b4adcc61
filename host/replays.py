"""Replays: a finished game told again, step by step, by re-running its engine over the stored action log.

The engines are deterministic functions of (seed, options, actions), so a game is rebuilt from its seed and
options and each logged action is applied again; every step yields the view of one seat (None: the public
view, which carries no hidden card) and the narration the thread showed for it. A game saved under an older
``rules_version`` is started under that version: the fresh state is stamped with it and loaded through the
engine's ``from_json``, which keeps old versions loadable (Hector and Achilles, HEX-TRI and Kiválasztottak keep
their old rules by the stamp; Troja migrates a version-1 state to its retired card set). Every replayed step is
checked against the events the log stored, so a replay that would show something other than what happened is
refused with a reason, never shown.

No Discord here: :func:`frames` is pure and synchronous (run it in a worker thread); :func:`load` reads the
store and fences the game like every other per-game request (``GameService.game``).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from engines import ENGINES, IllegalAction
from host.asker import Asker
from host.ending import Ending, How
from host.errors import GameError
from host.locale import t, use_language
from host.presenters import presenter_for
from host.service import GameService
from host.service_core import PROMPT_KEYS
from host.undo import as_played, restepped
from render import RENDERERS
from render import replay as replay_pictures
from store import GameRow

#: the most a replay may weigh: well under Discord's 8 MiB attachment limit, so it loads quickly on a phone
MAX_BYTES = 3 * 1024 * 1024
#: most frames in an animation; a longer game is sampled (and its first frame says so)
MAX_FRAMES = 120
#: how long a frame stays (ms): the opening and the end a little longer
STEP_MS, FIRST_MS, LAST_MS = 1400, 3000, 6000

#: how many steps before the end a seat's last hand is looked for, when the game put the hands away as it ended
REVEAL_LOOKBACK = 60

#: the event that opens a new chapter of each game (what the step-through's "next" jump looks for)
CHAPTER_EVENTS = {"hector-achilles": "battle_started", "ave-caesar": "race_started", "hextri": "round",
                  "troja": "round", "kivalasztottak": "round_started"}


@dataclass
class Frame:
    """One step of a replay: ``step`` 0 is the opening deal, step i the board after the i-th action."""

    step: int
    view: dict
    lines: list[str]
    events: list[dict] = field(default_factory=list)


@dataclass
class Record:
    """What a replay is built from: everything needed to play the game again (also the export format)."""

    engine: str
    seed: int
    num_players: int
    options: dict
    rules_version: int
    actions: list[dict]  # {"seat", "action", "events"} in order
    names: list[str]
    lang: str
    game_id: int | None = None
    result: dict | None = None
    #: the game was called off (an older record of one has no result)
    abandoned: bool = False

    def to_json(self) -> dict:
        return {"format": "gamehost-replay", "format_version": 1, "game": self.game_id, "engine": self.engine,
                "seed": self.seed, "num_players": self.num_players, "options": self.options,
                "rules_version": self.rules_version, "lang": self.lang, "names": self.names,
                "result": self.result, "abandoned": self.abandoned, "actions": self.actions}

    @property
    def ending(self) -> Ending | None:
        """How the game ended (host/ending.py), from the stored result; None for a record without one."""
        if self.result is None and not self.abandoned:
            return None
        return Ending.from_json(self.result, abandoned=self.abandoned)

    @classmethod
    def from_json(cls, data: dict) -> Record:
        if data.get("format") != "gamehost-replay":
            raise ValueError("not a game record exported by /game export")
        return cls(engine=data["engine"], seed=data["seed"], num_players=data["num_players"],
                   options=data["options"], rules_version=data["rules_version"], actions=data["actions"],
                   names=data["names"], lang=data.get("lang") or "en", game_id=data.get("game"),
                   result=data.get("result"), abandoned=bool(data.get("abandoned")))


def _plain(obj):
    return json.loads(json.dumps(obj))


def start_state(record: Record):
    """The engine state the game began in, under the rules version it was played with (GameError if the
    engine cannot start a game of that version any more)."""
    engine = ENGINES.get(record.engine)
    if engine is None:
        raise GameError.of("unknown_game", key=record.engine[:40])
    try:
        state = engine.new_game(record.num_players, record.seed, dict(record.options))
    except (ValueError, IllegalAction) as exc:
        raise GameError.of("replay_cannot_start", reason=str(exc)) from exc
    if record.rules_version != engine.rules_version:
        data = engine.to_json(state)
        data["rules_version"] = record.rules_version
        try:
            state = engine.from_json(data)
        except (ValueError, KeyError) as exc:
            raise GameError.of("replay_old_rules", version=record.rules_version,
                               current=engine.rules_version) from exc
    return state


def frames(record: Record, seat: int | None = None, *, upto: int | None = None,
           only: set[int] | None = None) -> list[Frame]:
    """The replay of ``record`` as seen by ``seat`` (None: the public view), from the opening to step ``upto``
    (default: the end). ``only``: the steps whose frames to keep (the engine still runs through every step).
    Each step's events are checked against the stored ones: GameError "replay_diverged" when they differ."""
    use_language(record.lang)
    engine = ENGINES[record.engine]
    presenter = presenter_for(record.engine)
    state = start_state(record)
    last = len(record.actions) if upto is None else max(0, min(upto, len(record.actions)))
    out: list[Frame] = []
    if only is None or 0 in only:
        view = engine.view(state, seat)
        players = ", ".join(f"{name} ({presenter.seat_label(seat_no)})" for seat_no, name in enumerate(record.names))
        opening = [t("started", game=record.game_id or "?", title=engine.title, players=players),
                   *presenter.opening_lines(engine.view(state, None), record.names)]
        out.append(Frame(0, view, opening))
    ended = record.ending
    total = len(record.actions)
    if ended is not None and (only is None or 0 in only):
        out[0].lines += _departures_at(ended, 0, total, presenter, record.names)  # left before any move
        if total == 0:
            _tell_ending(out[0], ended, presenter, record)
    for step, entry in enumerate(record.actions[:last], start=1):
        try:
            events = engine.apply(state, entry["seat"], entry["action"])
        except IllegalAction as exc:
            raise GameError.of("replay_diverged", step=step) from exc
        if "events" in entry and _plain(events) != entry["events"]:
            raise GameError.of("replay_diverged", step=step)
        if only is None or step in only:
            lines = [line for e in events if (line := presenter.narrate(e, record.names))]
            if ended is not None:
                lines += _departures_at(ended, step, total, presenter, record.names)
            out.append(Frame(step, engine.view(state, seat), lines, events))
            if ended is not None and step == total:
                _tell_ending(out[-1], ended, presenter, record)
    if upto is None and ended is not None and not ends_as_recorded(ended, engine.result(state)):
        raise GameError.of("replay_diverged", step=last)
    return out


def ends_as_recorded(ended: Ending, result: dict | None) -> bool:
    """Whether the replayed game ends as the record says: by its rules with the recorded result, or (ended
    outside play: a resignation, a forfeit, an organizer's decision...) not by its rules at all. A game some
    players left before its end has its places changed by that, so only the rest of the result is compared."""
    if ended.how is not How.NATURAL or ended.details is None:
        return result is None or ended.how is How.ABANDONED
    if result is None:
        return False
    mine, theirs = _plain(result), _plain(ended.details)
    if ended.left:
        mine.pop("places", None)
        theirs.pop("places", None)
    return mine == theirs


def _departures_at(ended: Ending, step: int, total: int, presenter, names: list[str]) -> list[str]:
    """Lines for the players who left the game after move ``step`` (the AI finished their seats); at the
    last step of a game that ended because they left, the ending itself tells it."""
    if step == total and ended.how is not How.NATURAL:
        return []
    return [t("replay_left", who=presenter.who(d.seat, names), how=t("end_mark_" + d.how.value))
            for d in ended.left if d.step == step]


def _tell_ending(frame: Frame, ended: Ending, presenter, record: Record) -> None:
    """The last frame says how the game ended, in words and on its picture (never whose turn it was)."""
    frame.lines += ["**" + t("finished" if ended.has_result else "finished_abandoned") + "**",
                    *presenter.ending_lines(ended, record.names)]
    shown = presenter.ending_picture(ended, record.names)
    if shown is not None:
        frame.view = held(frame.view) | {"ending": shown}


def final_state(record: Record):
    """The state after every action of ``record`` (for ``bench.replay``); GameError if the log does not replay."""
    engine = ENGINES[record.engine]
    state = start_state(record)
    for step, entry in enumerate(record.actions, start=1):
        try:
            engine.apply(state, entry["seat"], entry["action"])
        except IllegalAction as exc:
            raise GameError.of("replay_diverged", step=step) from exc
    return state


def chapters(record: Record) -> list[int]:
    """The steps that open a new battle, race or round (by the events the log stored), in order."""
    kind = CHAPTER_EVENTS.get(record.engine)
    return [step for step, entry in enumerate(record.actions, start=1)
            if any(e.get("type") == kind for e in entry.get("events") or [])]


def sample(count: int, most: int) -> list[int]:
    """At most ``most`` step numbers out of 0..count-1, evenly spread, always with the first and the last."""
    if count <= most:
        return list(range(count))
    if most < 2:
        return [count - 1]
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


async def record_of(service: GameService, game_id: int, asker: Asker | None) -> tuple[GameRow, Record]:
    """The record of a finished game that ``asker`` may see (the service's fence); GameError otherwise."""
    game = await service.game(game_id, asker)
    if not replayable(game):
        raise GameError.of("replay_not_finished", game=game_id)
    actions = await service.store.actions(game.id)
    record = Record(engine=game.engine, seed=game.seed, num_players=game.num_players,
                    options=dict(game.options.get("engine") or {}),
                    rules_version=1 if game.rules_version is None else game.rules_version,
                    actions=as_played(actions),  # the final choices: what was taken back is not shown
                    names=service.names(game), lang=game.lang, game_id=game.id,
                    result=restepped(game.result, actions),
                    abandoned=game.status == "abandoned")
    return game, record


def replayable(game: GameRow) -> bool:
    """A game that is over and was played: finished, or called off after it started (one abandoned in its lobby
    has nothing to show)."""
    return game.status == "finished" or (game.status == "abandoned" and game.rules_version is not None)


def own_seat(game: GameRow, asker: Asker, seat: int) -> None:
    """A private replay is of the asker's own seat only: GameError for anyone else's (the custom_id of a step
    button names a seat, and a click can be forged)."""
    mine = game.seat_of(asker.user_id)
    if mine is None:
        raise GameError.of("replay_not_your_seat", game=game.id)
    if mine != seat:
        raise GameError.of("replay_other_seat", game=game.id)


async def load(service: GameService, game_id: int, asker: Asker | None, *, seat: int | None = None,
               upto: int | None = None, only: set[int] | None = None) -> tuple[GameRow, Record, list[Frame]]:
    """Frames of a finished game, built off the event loop. ``seat``: a private replay, only for the asker's
    own seat (``asker`` None: the host itself)."""
    game, record = await record_of(service, game_id, asker)
    if seat is not None and asker is not None:
        own_seat(game, asker, seat)
    built = await asyncio.to_thread(frames, record, seat, upto=upto, only=only)
    return game, record, built


def may_reveal(game: GameRow, asker: Asker | None) -> None:
    """Hands at the end are shown to everyone only at the request of the game's host (who opened it), and only
    of a finished game; GameError otherwise."""
    if not replayable(game):
        raise GameError.of("replay_not_finished", game=game.id)
    if asker is not None and asker.user_id != game.host_user_id:
        raise GameError.of("replay_hands_host_only", game=game.id)


def held(view: dict) -> dict:
    """A seat's own view as its revealed hand is drawn: without what asks it for a move."""
    return {k: v for k, v in view.items() if k not in PROMPT_KEYS}


def hands(record: Record) -> list[tuple[int, int, bytes]]:
    """Every seat's hand at the end of the game, ``(seat, step, PNG)``: its private picture of the last step,
    or, when the game put the hands away as it ended (Hector and Achilles, Ave Caesar), of the latest step at
    most ``REVEAL_LOOKBACK`` before the end at which it held one. Empty for a game without hidden cards. Call it
    after :func:`frames` checked the log."""
    engine = ENGINES[record.engine]
    renderer = RENDERERS[record.engine]
    state = start_state(record)
    total = len(record.actions)
    seats = range(record.num_players)
    recent: list[tuple[int, list[dict]]] = []
    for step in range(total + 1):
        if step:
            entry = record.actions[step - 1]
            engine.apply(state, entry["seat"], entry["action"])
        if step >= total - REVEAL_LOOKBACK:
            recent.append((step, [engine.view(state, seat) for seat in seats]))
    out = []
    for seat in seats:
        for step, views in reversed(recent):
            png = renderer.render_private({**held(views[seat]), "player_names": record.names, "lang": record.lang})
            if png is not None:
                out.append((seat, step, png))
                break
    return out


@dataclass
class Animation:
    """An animated replay: GIF bytes, the pictures it shows (``shown``) for ``steps`` frames (the opening and
    one per move), and after them ``revealed`` frames of the players' hands at the end. ``unit``: what one
    picture of a long game stands for ("chapter": a battle, race or round; "round": a round of turns; "part");
    None when every step has its picture."""

    data: bytes
    shown: int
    steps: int
    revealed: int = 0
    unit: str | None = None

    @property
    def sampled(self) -> bool:
        return self.shown < self.steps

    @property
    def chapters(self) -> int | None:
        return self.shown - 1 if self.unit else None

    def unit_key(self, engine: str) -> str:
        """The locale key of the word for what one picture stands for (``replay_sampled``'s ``{unit}``)."""
        return f"replay_unit_chapter_{engine}" if self.unit == "chapter" else f"replay_unit_{self.unit or 'part'}"


#: a game with fewer chapters than this is told one picture per round of turns instead (Ave Caesar's races)
MIN_CHAPTERS = 8


def spans(record: Record, most: int) -> tuple[list[tuple[int, int, str]], str]:
    """A long game cut into at most ``most`` spans ``(first step, last step, caption)``: one per battle, race or
    round, or per round of turns within them when a game has fewer than ``MIN_CHAPTERS`` chapters; spans merged
    evenly when there are still too many. Also the unit ("chapter", "round" or "part") one span stands for."""
    total = len(record.actions)
    starts = [1] + [s for s in chapters(record) if s > 1]
    chapter_of = []  # (first, last, chapter number)
    for n, first in enumerate(starts):
        last = (starts[n + 1] - 1) if n + 1 < len(starts) else total
        if last >= first:
            chapter_of.append((first, last, n + 1))
    name = f"replay_chapter_{record.engine}"
    unit = "chapter"
    out = [(a, b, t(name, n=n)) for a, b, n in chapter_of]
    if len(chapter_of) < MIN_CHAPTERS:
        unit = "round"
        turns = max(1, record.num_players)
        out = []
        for a, b, n in chapter_of:
            for k, first in enumerate(range(a, b + 1, turns), start=1):
                out.append((first, min(b, first + turns - 1),
                            t("replay_caption_round", chapter=t(name, n=n), round=k)))
    if len(out) > most:
        unit = "part"
        merged = []
        for i in range(most):
            lo, hi = out[i * len(out) // most], out[(i + 1) * len(out) // most - 1]
            merged.append((lo[0], hi[1], lo[2] if lo[2] == hi[2] else f"{lo[2]} – {hi[2]}"))
        out = merged
    return out, unit


def animate(record: Record, *, max_bytes: int = MAX_BYTES, most: int = MAX_FRAMES,
            reveal: bool = False) -> Animation:
    """The public replay of ``record`` as an animated GIF under ``max_bytes``, in the game's own colours. A game
    of at most ``most`` steps shows every step; a longer one shows one picture per battle, race or round (per
    round of turns when it has few; see :func:`spans`), each the board at the span's end with its narration
    (whole sentences: the latest that fit, and how many earlier lines gave way), and the first picture says
    that every step is in ``/game steps``. Still too large: fewer, merged spans. ``reveal``: after the last
    step, one frame per seat with its hand at the end (only its private picture; check :func:`may_reveal`
    first). Pure and slow: run it in a worker thread."""
    use_language(record.lang)
    built = frames(record)
    presenter = presenter_for(record.engine)
    renderer = RENDERERS[record.engine]
    boards: dict[int, bytes] = {}
    total = len(built) - 1  # actions; frame 0 is the opening

    def board(index: int) -> bytes:
        if index not in boards:
            view = {**built[index].view, "player_names": record.names, "lang": record.lang}
            boards[index] = renderer.render_public(view)
        return boards[index]

    hands_shown = []
    for seat, step, png in hands(record) if reveal else []:
        header = t("replay_hands_caption", name=record.names[seat], seat=presenter.seat_label(seat), step=step,
                   steps=total)
        hands_shown.append((png, header, [], t("replay_hands_note")))
    earlier = t("replay_earlier", count="{count}")
    while True:
        # (board step, header, narration lines, note) of every picture
        plan: list[tuple[int, str, list[str], str | None]] = []
        unit = None
        if len(built) <= most:
            for index, f in enumerate(built):
                plan.append((index, t("replay_caption_step", step=f.step, steps=total), f.lines, None))
        else:
            cut, unit = spans(record, most - 1)
            plan.append((0, t("replay_caption_step", step=0, steps=total), built[0].lines, None))
            for first, last, caption in cut:
                lines = [line for f in built[first:last + 1] for line in f.lines]
                plan.append((last, t("replay_caption_span", chapter=caption, first=first, last=last, steps=total),
                             lines, None))
            word = t(Animation(b"", 0, 0, unit=unit).unit_key(record.engine))
            plan[0] = (*plan[0][:3], t("replay_sampled", shown=len(plan), steps=total, unit=word))
        pngs = [board(index) for index, *_ in plan] + [png for png, *_ in hands_shown]
        width = max(replay_pictures.frame_width(p) for p in pngs)
        inner = width - 2 * replay_pictures.MARGIN
        room = max(replay_pictures.lines_needed(lines, inner) for _, _, lines, _ in plan)
        size = replay_pictures.board_area(pngs)
        top = max(len(replay_pictures.top_lines(header, note, width)) for _, header, _, note in plan + [
            (None, header, None, note) for _, header, _, note in hands_shown])
        images, durations = [], []
        palette = replay_pictures.board_palette(board(0))
        compact = replay_pictures.compact  # each frame kept on the palette: a third of the memory
        for n, (index, header, lines, note) in enumerate(plan):
            images.append(compact(replay_pictures.frame(board(index), header, lines, note, lines_room=room,
                                                        board_size=size, earlier=earlier, top_rows=top), palette))
            durations.append(FIRST_MS if n == 0 else LAST_MS if n == len(plan) - 1 else STEP_MS)
        for png, header, lines, note in hands_shown:
            images.append(compact(replay_pictures.frame(png, header, lines, note, lines_room=room, board_size=size,
                                                        top_rows=top), palette))
            durations.append(LAST_MS)
        data = replay_pictures.animation(images, durations, palette)
        if len(data) <= max_bytes:
            return Animation(data, len(plan), len(built), len(hands_shown), unit)
        if len(plan) <= 2:
            raise GameError.of("replay_too_big", game=record.game_id or "?")
        most = max(3, min(len(plan) - 1, int(len(plan) * max_bytes / len(data) * 0.9)))


def picture(record: Record, frame: Frame, seat: int | None) -> bytes:
    """One step's picture: the board, or for a seat its own private picture (the board when the game draws
    none)."""
    renderer = RENDERERS[record.engine]
    view = {**frame.view, "player_names": record.names, "lang": record.lang}
    if seat is not None:
        private = renderer.render_private(view)
        if private is not None:
            return private
    return renderer.render_public(view)


#: games shown per page of /game history
HISTORY_PAGE = 10
#: most finished games /game history looks back on
HISTORY_MAX = 500


@dataclass
class PastGame:
    """One line of a person's record: the game, when it ended, who else played, the person's place and how the
    game ended (host/ending.py)."""

    game: GameRow
    ended: str
    opponents: list[str]
    place: int | None
    draw: bool
    ending: Ending | None = None
    seat: int | None = None


async def history(service: GameService, asker: Asker, user_id: int, engine: str | None = None,
                  page: int = 0) -> tuple[list[PastGame], int]:
    """A page of ``user_id``'s games that are over (finished, or called off after they started) that ``asker``
    may see (this server's; in a direct message only the asker's own), newest first, and the number of pages."""
    if asker.guild_id is None and user_id != asker.user_id:
        return [], 0  # in a direct message, a person sees only their own games
    games = await service.store.list_games(guild_id=asker.guild_id, user_id=user_id,
                                           statuses=("finished", "abandoned"), limit=HISTORY_MAX)
    games = [g for g in games if (engine is None or g.engine == engine) and service.may_see(g, asker)
             and replayable(g)]
    pages = max(1, -(-len(games) // HISTORY_PAGE))
    page = max(0, min(page, pages - 1))
    out = []
    for g in games[page * HISTORY_PAGE:(page + 1) * HISTORY_PAGE]:
        seat = g.seat_of(user_id)
        ended = service.how_it_ended(g)
        place = ended.place(seat) if ended is not None and seat is not None else None
        out.append(PastGame(g, g.updated_at, [s.name for s in g.seats if s.seat != seat], place,
                            ended is not None and ended.draw, ended, seat))
    return out, pages


def history_result(past: PastGame, lang: str | None) -> str:
    """The result column of a history line, in ``lang``: won, a draw, the place, or no result, with how the
    game ended when the rules did not end it alone ("won — Ann resigned", "place 2 of 2 — ran out of time")."""
    ended, seat = past.ending, past.seat
    if ended is None or ended.places is None:
        return t("history_abandoned", lang)
    result = (t("history_draw", lang) if past.draw else t("history_won", lang) if past.place == 1
              else t("history_place", lang, place=past.place, count=len(ended.places)) if past.place else "—")
    names = {s.seat: s.name for s in past.game.seats}
    mine = ended.departure(seat) if seat is not None else None
    if mine is not None:
        why = t("end_mark_" + mine.how.value, lang)
    elif ended.how in (How.ADJUDICATED, How.DEADLINE):
        why = t("history_by_" + ended.how.value, lang)
    elif ended.left and ended.how is not How.NATURAL:
        why = t("history_by_" + ended.how.value, lang, who=names.get(ended.left[-1].seat, "?"))
    else:
        return result
    return f"{result} — {why}"
