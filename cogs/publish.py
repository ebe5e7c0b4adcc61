"""Turning the host's answers into Discord messages: the lobby, boards in the game thread, DMs."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from io import BytesIO
from typing import Any

import aiohttp
import discord

from cogs.gamebot import GameBot, Pictured
from cogs.views import JoinButton, StartButton, board_view, clip_content, panel_view
from cogs.weblinks import board_link
from engines import ENGINES
from host.errors import GameError
from host.locale import t, use_language
from host.outcome import Hand, Nudge, Outcome
from host.places import opening_owed, waiting_for_place
from host.presenters import presenter_for
from store import GameRow

log = logging.getLogger(__name__)

__all__ = ["BytesIO", "Delivered", "clip_content", "publish", "lobby_message"]

MAX_CONTENT = 2000
CANNOT_DM = 50007



def mentions(user_ids: list[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False,
                                   users=[discord.Object(u) for u in user_ids])


#: where a game's messages go: its thread or channel as cached, else a partial one (no cache needed to post)
Place = (discord.TextChannel | discord.Thread | discord.VoiceChannel | discord.StageChannel | discord.DMChannel
         | discord.PartialMessageable)


def game_place(bot: GameBot, game: GameRow) -> Place:
    return channel_place(bot, place_id(game), game.guild_id)


def place_id(game: GameRow) -> int:
    """The id of the game's thread, or of its channel where it has none."""
    channel_id = game.thread_id or game.channel_id
    if channel_id is None:  # (an AI-only game, host/service.py's play_ai: it has no place on Discord)
        raise ThreadGone(f"game {game.id} has no channel")
    return channel_id


def channel_place(bot: GameBot, channel_id: int, guild_id: int | None) -> Place:
    """A channel to post in and edit messages of: the cached one (a forum or a category is none of that: then a
    partial one, whose requests Discord answers)."""
    channel = bot.get_channel(channel_id)
    if isinstance(channel, Place):
        return channel
    return bot.get_partial_messageable(channel_id, guild_id=guild_id)


@dataclass
class Delivered:
    """How a publication went: ``shown`` (posted now, or nothing was owed), ``pending`` (saved, not yet shown:
    retried later; ``cause`` says why, see :func:`cause_of`), ``queued`` (the game's thread is not open yet:
    shown when it opens), ``moved`` (the thread was gone: the game goes on in a new one, ``place``), ``lost``
    (thread and channel are gone: only ``/game status`` shows the board), ``set_aside`` (failed too often: a dead
    letter, its thread told; host/outbox.py)."""

    status: str
    place: int | None = None
    cause: str | None = None
    #: DMs not sent because the same turn goes on (its people were DMed when its board was posted): the
    #: clicker's is shown by updating the private panel they clicked in (cogs/actions.py)
    held: list[Nudge] = field(default_factory=list)

    @property
    def shown(self) -> bool:
        return self.status == "shown"

    def explain(self, locale: str | None) -> str | None:
        """What to tell the person whose move this was, when it was not simply shown."""
        if self.status == "pending":
            return t("saved_not_drawn" if self.cause == "internal" else "saved_not_posted", locale)
        if self.status == "queued":
            return t("saved_place_queued", locale)
        if self.status == "moved":
            return t("saved_thread_moved", locale, place=f"<#{self.place}>")
        if self.status == "lost":
            return t("saved_thread_gone", locale)
        if self.status == "set_aside":
            return t("saved_set_aside", locale)
        return None


class ThreadGone(Exception):
    """The game's thread and its channel are both gone: there is nowhere to post."""


#: errors of a post that another try may overcome (Discord's own 429/5xx retries are already spent, or its wait
#: was longer than discord.py waits by itself: RateLimited)
TRANSIENT = (discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError, asyncio.TimeoutError)
#: seconds a cosmetic edit (a spent board's buttons, a lobby, an announcement) may take in the background
EDIT_TIMEOUT = 20.0
_edits: set[asyncio.Task] = set()


def edit_later(edit, what: str) -> asyncio.Task:
    """Run a cosmetic edit beside the game, never in its way: Discord refuses some edits for a long time (30046 on
    messages older than an hour, 50083 in an archived thread, 10008 for a deleted message, or a rate limit
    discord.py would sleep through), and none of them may hold up a move, a board or an answer. A refusal is
    logged; the edited message simply stays as it was (an old board's buttons answer "out of date")."""
    async def run() -> None:
        try:
            await asyncio.wait_for(edit, EDIT_TIMEOUT)
        except (TimeoutError, discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError) as exc:
            log.info("could not %s: %s", what, _describe(exc))

    task = asyncio.create_task(run())
    _edits.add(task)
    task.add_done_callback(_edits.discard)
    return task
UNKNOWN_CHANNEL = 10003
#: "maximum number of edits to messages older than 1 hour reached"
TOO_MANY_EDITS = 30046
#: seconds an update of the board that is up may wait for Discord (e.g. a rate limit discord.py would sleep
#: through) before a new board is posted instead
BOARD_EDIT_TIMEOUT = 5.0
#: a board older than this may have been posted by an earlier process whose nonce Discord has forgotten
NONCE_MEMORY = timedelta(minutes=2)


async def publish(bot: GameBot, outcome: Outcome | None = None, *, game_id: int | None = None,
                  interaction: discord.Interaction | None = None) -> Delivered:
    """Deliver what the game owes its players (``host/outbox.py``): the new board in the game's thread (then the
    previous board loses its buttons), then the DMs of the seats to act; or, while the same people's turn goes
    on, the board already up updated in place (through ``interaction``'s own response when it is the click on
    that board, so no edit limit applies) and no DM. ``outcome``: the board the caller has already built, used
    when it is still the one owed. Never raises for a failure of this game's publication
    (Discord refusing it, a board that cannot be drawn, a game that cannot be read): the entries stay in the
    outbox with their own pause before the next try, or are set aside after too many (:func:`_setback`), so
    whoever publishes several games (the publisher, a clock round) goes on with the next one."""
    if game_id is None:
        if outcome is None:
            raise TypeError("publish() needs an outcome or a game_id")
        game_id = outcome.game.id
    row = await bot.service.store.get_game(game_id, with_snapshot=False, tolerant=True)
    if row is not None and (waiting_for_place(row) or opening_owed(row)):  # nothing before the game's opening
        return Delivered("queued")
    lock = bot.publish_locks.setdefault(game_id, asyncio.Lock())
    async with lock:
        try:
            publication = await bot.outbox.prepare(game_id, outcome)
        except Exception as exc:  # the board could not be built: a picture or a text that raises, a damaged game
            return await _setback(bot, game_id, None, exc)
        if publication is None:
            return Delivered("shown")
        game = publication.outcome.game
        use_language(game.lang)
        try:
            delivered = await _deliver(bot, publication, interaction)
        except Exception as exc:
            return await _setback(bot, game_id, publication, exc)
    if publication.outcome.finished or game.status != "running":
        bot.dispatch("gamehost_game_over", game_id)  # its thread is archived in a while (cogs/places.py)
    if publication.outcome.finished and game.tournament_id:
        # counted and posted by the tournaments cog (cogs/tournaments.py listens): publishing imports no
        # tournament code, as discord.py and Red-DiscordBot's cogs signal each other
        bot.dispatch("gamehost_match_over", game)
    return delivered


def cause_of(exc: BaseException) -> str:
    """Why a publication failed, as the metric ``gamehost_publish_failed_total`` labels it: ``unavailable``
    (Discord failing or unreachable: 5xx, timeouts, connections; tried again without limit), ``refused``
    (Discord refused the post: 4xx), ``no_thread`` (thread and channel deleted), ``unreadable`` (the game cannot
    be read: damaged, or saved by a newer version), ``internal`` (the board could not be built)."""
    if isinstance(exc, ThreadGone):
        return "no_thread"
    if isinstance(exc, GameError):  # the game cannot be read (damaged, or saved by a newer version)
        return "unreadable"
    if isinstance(exc, discord.DiscordServerError | discord.RateLimited | aiohttp.ClientError | OSError
                  | asyncio.TimeoutError):
        return "unavailable"
    if isinstance(exc, discord.HTTPException):
        return "unavailable" if exc.status == 429 or exc.status >= 500 else "refused"
    return "internal"


async def _setback(bot: GameBot, game_id: int, publication, exc: Exception) -> Delivered:
    """A publication of ``game_id`` failed with ``exc``: count it, keep its entries for a later try or set them
    aside (host/outbox.py), and tell the game's thread when they are set aside."""
    cause = cause_of(exc)
    if cause == "internal":  # a bug or damaged data: the traceback is what a maintainer needs
        log.error("the board of game %s could not be built", game_id, exc_info=exc)
    metrics = getattr(bot, "metrics", None)
    if metrics is not None:
        metrics.publish_failed.labels(cause).inc()
    setback = await bot.outbox.failed(game_id, _describe(exc), upto=publication.upto if publication else None,
                                      counts=cause != "unavailable")
    if setback.set_aside:
        log.error("game %s: publication set aside after %d failed tries (%s)", game_id, setback.attempts,
                  _describe(exc))
        if metrics is not None:
            metrics.publish_set_aside.inc()
        await tell_set_aside(bot, game_id)
        return Delivered("set_aside", cause=cause)
    log.warning("could not publish game %s (%s); trying again in %s", game_id, _describe(exc), setback.pause)
    return Delivered("lost" if cause == "no_thread" else "pending", cause=cause)


async def tell_set_aside(bot: GameBot, game_id: int | None = None) -> int:
    """Post the note owed to the threads of games whose publication was set aside (of one game, or of every game
    of this process's shards); each is recorded once posted, or once there is nowhere to post it. Returns how
    many were posted."""
    posted = 0
    for dead in await bot.outbox.unnoted(getattr(bot, "owned", None)):
        if game_id is not None and dead.game_id != game_id:
            continue
        game = await bot.service.store.get_game(dead.game_id, with_snapshot=False, tolerant=True)
        if game is None or not (game.thread_id or game.channel_id):
            await bot.outbox.noted(dead.game_id, dead.upto)
            continue
        use_language(game.lang)
        try:
            await game_place(bot, game).send(
                bot.outbox.set_aside_note(game.id, dead.attempts),
                nonce=bot.outbox.nonce_of_note(game.id, dead.upto),
                allowed_mentions=discord.AllowedMentions.none())
            posted += 1
        except TRANSIENT as exc:
            if cause_of(exc) == "unavailable":
                log.info("could not tell the thread of game %s that its board was set aside: %s", game.id,
                         _describe(exc))
                continue  # the next publisher round tries again
            log.warning("cannot tell the thread of game %s that its board was set aside: %s", game.id,
                        _describe(exc))
        await bot.outbox.noted(dead.game_id, dead.upto)
    return posted


def _describe(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.code}: {exc.text}"[:300]
    return f"{type(exc).__name__}: {exc}"[:300]


async def _deliver(bot: GameBot, publication, interaction: discord.Interaction | None = None) -> Delivered:
    """Show the board (a new post, or the board that is up updated in place while the same turn goes on), then
    send the DMs, then record it all in one transaction (``Outbox.delivered``; DMs only: ``Outbox.done``). A DM
    that fails with more than a transient error records the board as up first (``Outbox.posted``), so the next
    try owes only the DMs."""
    outcome = publication.outcome
    delivered = Delivered("shown")
    nudges = outcome.nudges
    if publication.continues:  # the people asked now were DMed with the board that is up
        delivered.held = [n for n in nudges if publication.turn >> n.seat & 1]
        nudges = [n for n in nudges if not publication.turn >> n.seat & 1]
    message = None
    if publication.board:
        message, delivered = await _show_board(bot, publication, delivered, interaction)
    game = outcome.game
    if delivered.held:
        clicked = interaction.message.id if interaction is not None and interaction.message is not None else None
        _refresh_dms(bot, game, delivered.held, clicked)
    try:
        await _send_nudges(bot, game, nudges)
    except BaseException:
        if message is not None:
            await bot.outbox.posted(publication, message.id)
        raise
    if message is None:
        await bot.outbox.done(publication)
        return delivered
    await bot.outbox.delivered(publication, message.id)
    previous = publication.previous
    if previous and previous != message.id:  # only now: a crash before leaves two boards with buttons
        edit_later(game_place(bot, game).get_partial_message(previous).edit(view=None),
                   f"clear the buttons of message {previous} of game {game.id}")
    return delivered


async def _show_board(bot: GameBot, publication, delivered: Delivered, interaction: discord.Interaction | None
                      ) -> tuple[discord.Message, Delivered]:
    """The board that is up updated (the same turn goes on), else a new one posted (in a new thread when the
    game's was deleted: ``moved``)."""
    outcome = publication.outcome
    game = outcome.game
    if publication.continues and publication.previous:
        message = await _update_board(bot, game, publication, publication.previous, interaction)
        if message is not None:
            return message, delivered
    try:
        return await _post_board(bot, game, publication), delivered
    except discord.NotFound as exc:
        if exc.code != UNKNOWN_CHANNEL:
            raise
    game = await _new_thread(bot, game)
    outcome.game = game
    return await _post_board(bot, game, publication), Delivered("moved", game.thread_id, held=delivered.held)


async def _send_nudges(bot: GameBot, game: GameRow, nudges: list[Nudge]) -> None:
    """DM each player to act; a DM Discord will not take now is logged and skipped, anything else raises."""
    for nudge in nudges:
        try:
            await send_nudge(bot, game, nudge)
        except TRANSIENT as exc:  # a DM that cannot go out does not hold the game's board back
            log.info("could not DM user %s of game %s: %s", nudge.user_id, game.id, _describe(exc))


def _board_message(outcome: Outcome, link: discord.ui.Button | None = None) -> dict[str, Any]:
    board = outcome.board
    assert board is not None, "a publication that posts a board has one (host/outbox.py)"
    kwargs: dict[str, Any] = {"content": clip_content(board.text), "allowed_mentions": mentions(board.mentions)}
    view = board_view(outcome, link)
    if view.children:
        kwargs["view"] = view
    files = [discord.File(BytesIO(board.image), filename=board.filename)] if board.image is not None else []
    files += [discord.File(BytesIO(png), filename=f"{board.filename[:-4]}-{i + 1}.png")
              for i, png in enumerate(board.extras[:9])]  # Discord takes 10 files per message
    if files:
        kwargs["files"] = files
    return kwargs


def _pictures_of(board) -> str | None:
    """What identifies a board's pictures (None: it has none)."""
    if board.image is None and not board.extras:
        return None
    digest = hashlib.blake2b(board.image or b"", digest_size=16)
    for png in board.extras[:9]:
        digest.update(png)
    return digest.hexdigest()


def hands_shown(bot: GameBot) -> dict[tuple[int, int, int], Pictured]:
    """(game id, seat, user id) -> the hand picture last DMed (this process only: after a restart the next DM
    carries it again), so that a DM carries the hand only when it changed."""
    if not hasattr(bot, "hands_shown"):
        bot.hands_shown = {}
    return bot.hands_shown


def hand_words(hand: Hand) -> str:
    """A hand listed in a DM (🃏 Your hand now: …), with its note."""
    if not hand.items:
        return t("dm_hand_text_none", note=hand.note).rstrip()
    return t("dm_hand_text", cards=", ".join(hand.items), note=hand.note).rstrip()


def _covered(items: tuple[str, ...], pictured: tuple[str, ...]) -> bool:
    """Every card of ``items`` is on the picture that showed ``pictured`` (as many of each): the hand only lost
    cards since (the one the player just played), nothing new came in."""
    return not Counter(items) - Counter(pictured)


@dataclass
class DmHand:
    """What a DM shows of its seat's hand: ``head``, a line under what it asks (the hand in words, or that the
    picture above still shows it), and ``picture``, the hand picture to upload (None: no new upload)."""

    head: str | None
    _: KW_ONLY  # (the rest by name: a picture and what it shows never trade places)
    picture: discord.File | None = None
    #: remembered once the DM carrying ``picture`` is sent or edited (:meth:`remember`)
    pictured: Pictured | None = None
    #: the hand is in words: a picture the DM carried before shows an older hand, so an update drops it
    in_words: bool = False

    def remember(self, bot: GameBot, game: GameRow, nudge: Nudge) -> None:
        if self.pictured is not None:
            hands_shown(bot)[(game.id, nudge.seat, nudge.user_id)] = self.pictured


def dm_hand(bot: GameBot, game: GameRow, nudge: Nudge) -> DmHand:
    """The hand in a DM of ``nudge`` (sent at the start of a turn, or updated while it goes on). One upload per
    change that brings something new: no picture when the hand holds nothing the last hand picture DMed did not
    show (it only lost the card the player played, or it is empty) - then the DM lists the hand in words, so the
    whole current hand is always in sight; no picture when it is the same picture again (a line says so); else
    the new picture. A game whose hand is not said in words (``nudge.hand`` None, e.g. Ave Caesar's destinations
    numbered on its picture) gets its new picture whenever it changed. A DM without a picture
    (``Presenter.dm_picture`` False, e.g. Ave Caesar) always lists the hand in words. Without hidden information
    the picture is the public board's, which the thread shows: none."""
    if not _private(game):
        return DmHand(None)
    if nudge.image is None:  # (a DM said in words: Presenter.dm_picture False, its picture on request)
        return DmHand(hand_words(nudge.hand) if nudge.hand is not None else None, in_words=nudge.hand is not None)
    shown = hands_shown(bot).get((game.id, nudge.seat, nudge.user_id))
    hand = nudge.hand
    if hand is not None and (not hand.items or (shown is not None and shown.items is not None
                                                and _covered(hand.items, shown.items))):
        return DmHand(hand_words(hand), in_words=True)
    digest = hashlib.blake2b(nudge.image, digest_size=16).hexdigest()
    if shown is not None and shown.digest == digest:
        return DmHand(t("dm_hand_same", button=t("button_hand")))
    return DmHand(None, picture=discord.File(BytesIO(nudge.image), filename=f"hand-{game.id}.png"),
                  pictured=Pictured(digest, hand.items if hand is not None else None))


def dm_update(bot: GameBot, game: GameRow, nudge: Nudge) -> tuple[dict, Callable[[], None]]:
    """The keyword arguments of an edit that brings the DM of ``nudge``'s turn up to date while the turn goes
    on (its clock warning kept, its hand as :func:`dm_hand` says: a new picture replaces the one it carried),
    and what to call once the edit went through."""
    nudge = still_warned(bot, game.id, nudge)
    shown = dm_hand(bot, game, nudge)
    kwargs = nudge_message(game, nudge, shown.head)
    if shown.picture is not None:
        kwargs["attachments"] = [shown.picture]
    elif shown.in_words:  # (the picture it carried shows cards since played: the words say the hand now)
        kwargs["attachments"] = []
    return kwargs, lambda: shown.remember(bot, game, nudge)


def turn_dms(bot: GameBot) -> dict[tuple[int, int], tuple[int, int, str | None]]:
    """(game id, seat) -> (DM channel id, message id, its clock warning) of the DM of that seat's turn, kept up
    to date while the turn goes on (this process only: after a restart an older DM's buttons answer "out of
    date")."""
    if not hasattr(bot, "turn_dms"):
        bot.turn_dms = {}
    return bot.turn_dms


def still_warned(bot: GameBot, game_id: int, nudge: Nudge) -> Nudge:
    """``nudge`` headed by the clock warning its turn's DM was sent with (an update keeps it)."""
    known = turn_dms(bot).get((game_id, nudge.seat))
    if known is None or not known[2] or nudge.warning:
        return nudge
    return replace(nudge, text=known[2] + "\n" + nudge.text, warning=known[2])


def _refresh_dms(bot: GameBot, game: GameRow, held: list[Nudge], clicked: int | None) -> None:
    """The DMs of a turn that goes on show its people's choices and hand as they are now (no new DM: the player
    is clicking on the board or in this very DM, whose click updates it itself): the hand in words when it only
    lost cards, a new picture only when something new came in (:func:`dm_update`)."""
    for nudge in held:
        known = turn_dms(bot).get((game.id, nudge.seat))
        if known is None or known[1] == clicked:
            continue
        channel_id, message_id, _ = known
        kwargs, remember = dm_update(bot, game, nudge)
        edit_later(_edited(bot.get_partial_messageable(channel_id).get_partial_message(message_id), kwargs,
                           remember), f"update the DM of seat {nudge.seat} of game {game.id}")


async def _edited(message: discord.PartialMessage, kwargs: dict, then: Callable[[], None]) -> None:
    await message.edit(**kwargs)
    then()


def _private(game: GameRow) -> bool:
    """Whether the game has hidden information (a hand): its players see their own picture in their DMs."""
    return presenter_for(game.engine).has_private


def _uploaded(bot: GameBot) -> dict[int, str | None]:
    """Game id -> the pictures last uploaded with its board (kept by this process only: after a restart the
    first update uploads them again)."""
    if not hasattr(bot, "board_pictures"):
        bot.board_pictures = {}
    return bot.board_pictures


async def _update_board(bot: GameBot, game: GameRow, publication, message_id: int,
                        interaction: discord.Interaction | None) -> discord.Message | None:
    """The same people's turn goes on: the board that is up (``message_id``) shows the game as it is now. Its
    picture is uploaded again only when it changed. Through the click's own interaction when it was on that
    board (no channel edit limit applies), else an edit of the message (a click in a DM or a private panel, or
    the publisher after a restart: an edit is repeatable, so a crash before it is recorded shows nothing twice).
    None: the board is gone (deleted), or Discord holds its edits back (30046 on an hour-old message, a rate
    limit), so a new one is posted."""
    outcome = publication.outcome
    kwargs = _board_message(outcome, await board_link(bot, game))
    pictures = _pictures_of(outcome.board)
    files = kwargs.pop("files", [])
    kwargs.setdefault("view", discord.ui.View(timeout=None))  # (controls that went away are dropped)
    # the picture of the turn is renewed when the turn passes (its text tells each decision meanwhile), so a
    # turn uploads one board picture and its DM one hand, not one per click; within the turn only where the
    # board is all a player sees: a game without hidden information (its DMs carry no picture: send_nudge);
    # and after a restart or a failed try (the publisher)
    if pictures != _uploaded(bot).get(game.id) and (interaction is None or not _private(game)):
        kwargs["attachments"] = files
    else:
        pictures = _uploaded(bot).get(game.id)
    message: discord.Message | None = None
    if interaction is not None and interaction.message is not None and interaction.message.id == message_id:
        try:
            if interaction.response.is_done():
                message = await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.edit_message(**kwargs)
                message = interaction.message
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.info("could not update the board of game %s through its click: %s", game.id, _describe(exc))
            message = None
            kwargs["attachments"] = files  # (not known whether the first try's pictures went up)
    if message is None:
        try:
            place = bot.get_partial_messageable(place_id(game), guild_id=game.guild_id)
            message = await asyncio.wait_for(place.get_partial_message(message_id).edit(**kwargs),
                                             BOARD_EDIT_TIMEOUT)
        except discord.NotFound:
            return None
        except (TimeoutError, discord.RateLimited):
            return None  # Discord holds edits of that message back (a rate limit): a new board it is
        except discord.HTTPException as exc:
            if exc.code != TOO_MANY_EDITS and exc.status != 429:
                raise
            return None  # Discord takes no more edits of that (hour-old) message now: a new board it is
    _uploaded(bot)[game.id] = pictures
    return message


async def _post_board(bot: GameBot, game: GameRow, publication) -> discord.Message:
    """Post the board once: Discord refuses a second message with the same nonce for a few minutes; past
    that (a long outage between an earlier post and its record) the thread's newest messages are looked at."""
    place = game_place(bot, game)
    since = datetime.fromisoformat(publication.since)
    if publication.attempts or datetime.now(UTC) - since > NONCE_MEMORY:
        earlier = await _find_posted(bot, place, publication.outcome)
        if earlier is not None:
            return earlier
    link = await board_link(bot, game)
    message = await place.send(nonce=publication.nonce, **_board_message(publication.outcome, link))
    _uploaded(bot)[game.id] = _pictures_of(publication.outcome.board)
    return message


async def _find_posted(bot: GameBot, place, outcome: Outcome) -> discord.Message | None:
    """This very board among the thread's newest messages: the same picture file and the same text (a warning
    posted with the same board is another message)."""
    board = outcome.board
    assert board is not None, "a publication that posts a board has one (host/outbox.py)"
    filename, text = board.filename, clip_content(board.text)
    me = bot.user.id if bot.user else None
    try:
        async for message in place.history(limit=20):
            if message.author.id == me and message.content == text and any(
                    a.filename == filename for a in message.attachments):
                return message
    except discord.HTTPException:  # (no Read Message History): better a second copy than no board
        return None
    return None


async def _new_thread(bot: GameBot, game: GameRow) -> GameRow:
    """The game's thread was deleted: a new one under the same channel, and the players are told there and in
    the channel."""
    if not game.channel_id or game.thread_id == game.channel_id:
        raise ThreadGone(f"the channel of game {game.id} is gone")
    try:
        parent = bot.get_channel(game.channel_id) or await bot.fetch_channel(game.channel_id)
        if not isinstance(parent, discord.TextChannel):  # (games are opened in text channels only)
            raise ThreadGone(f"the channel of game {game.id} cannot hold its thread")
        thread = await parent.create_thread(name=f"{ENGINES[game.engine].title} #{game.id}"[:100],
                                            type=discord.ChannelType.public_thread, auto_archive_duration=10080)
    except discord.NotFound as exc:
        raise ThreadGone(f"the channel of game {game.id} is gone") from exc
    await bot.service.attach(game.id, thread_id=thread.id)
    game = await bot.service.game(game.id)
    players = [s.user_id for s in game.seats if s.user_id]
    await thread.send(t("thread_recreated", game=game.id, mentions=" ".join(f"<@{u}>" for u in players)),
                      allowed_mentions=mentions(players))
    try:
        await parent.send(t("thread_moved", game=game.id, place=f"<#{thread.id}>"),
                          allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.info("could not tell channel %s about the new thread of game %s", game.channel_id, game.id)
    return game


async def send_nudge(bot: GameBot, game: GameRow, nudge: Nudge) -> None:
    """DM a player their private view and choices; closed DMs (50007) are announced once in the thread."""
    row = game.seat_row(nudge.seat)
    if row is None or row.dm_closed:
        return
    if (await bot.service.store.user_settings(nudge.user_id)).get("dm") is False:
        return
    shown = dm_hand(bot, game, nudge)  # the hand picture only when something new came in
    kwargs = nudge_message(game, nudge, shown.head)
    if shown.picture is not None:
        kwargs["file"] = shown.picture
    try:
        channel = await bot.create_dm(discord.Object(nudge.user_id))
        sent = await channel.send(**kwargs)
        shown.remember(bot, game, nudge)
        turn_dms(bot)[(game.id, nudge.seat)] = (channel.id, sent.id, nudge.warning)
    except discord.Forbidden as exc:
        if exc.code != CANNOT_DM:
            raise
        await bot.service.mark_dm_closed(game.id, nudge.seat)
        await game_place(bot, game).send(dm_closed_notice(game, nudge.user_id),
                                         allowed_mentions=mentions([nudge.user_id]))


def nudge_message(game: GameRow, nudge: Nudge, hand: str | None = None) -> dict:
    """A DM's text (what is asked first, as a notification shows it; then ``hand``, the line of :func:`dm_hand`;
    then the way to the game's thread) and its controls; its picture is the caller's."""
    link = f"https://discord.com/channels/{game.guild_id or '@me'}/{game.thread_id or game.channel_id}"
    lines = [nudge.text, *([hand] if hand else []), t("dm_jump", link=link)]
    return {"content": clip_content("\n".join(lines)), "view": panel_view(nudge.panel, picture=True)}


def dm_closed_notice(game: GameRow, user_id: int) -> str:
    """What a player whose DMs are closed can use instead, pointing at controls this game's boards have:
    "My hand" where there is hidden information, else the board's own buttons and "Take your turn"."""
    if presenter_for(game.engine).has_private:
        return t("dm_closed", mention=f"<@{user_id}>", button=t("button_hand"))
    return t("dm_closed_public", mention=f"<@{user_id}>", button=t("button_turn"))


def lobby_message(game: GameRow) -> dict:
    """Embed and buttons of a lobby (or of a started/abandoned game's first message)."""
    use_language(game.lang)
    engine = ENGINES[game.engine]
    presenter = presenter_for(game.engine)
    embed = discord.Embed(title=t("lobby_title", title=engine.title, game=game.id),
                          description=t("lobby_body", host=f"<@{game.host_user_id}>", game=game.id),
                          colour=discord.Colour.dark_gold())
    seats = []
    for seat in range(game.num_players):
        row = game.seat_row(seat)
        seats.append(f"{seat + 1}. {presenter.seat_label(seat)}: "
                     + (row.name if row else "*" + t("lobby_open_seat") + "*"))
    embed.add_field(name=t("lobby_seats", count=len(game.seats), max=game.num_players), value="\n".join(seats),
                    inline=False)
    embed.set_footer(text=t("status_" + game.status))
    view = discord.ui.View(timeout=None)
    if game.status == "lobby":
        embed.add_field(name="\u200b", value=t("lobby_start_hint", game=game.id, min=engine.min_players),
                        inline=False)
        view.add_item(JoinButton(game.id))
        view.add_item(StartButton(game.id))
    return {"embed": embed, "view": view}


async def _refresh_lobby(bot: GameBot, game: GameRow) -> None:
    if game.board_message_id is None:
        return
    edit_later(game_place(bot, game).get_partial_message(game.board_message_id).edit(**lobby_message(game)),
               f"refresh the lobby of game {game.id}")


def announcement(game: GameRow, opener: str | None = None) -> dict:
    """The message announcing a game in its channel: who opened what, where; a Join button while it is a
    lobby, then (no button) that it is under way or was called off."""
    use_language(game.lang)
    place = t("place_soon") if waiting_for_place(game) else f"<#{game.thread_id or game.channel_id}>"
    if opener is None:
        opener = next((s.name for s in game.seats if s.user_id == game.host_user_id), "?")
    lines = [t("announce", name=opener, title=ENGINES[game.engine].title, game=game.id, place=place)]
    view = discord.ui.View(timeout=None)
    if game.status == "lobby":
        view.add_item(JoinButton(game.id))
    elif game.status == "abandoned":
        lines.append(t("announce_abandoned", game=game.id))
    else:
        lines.append(t("announce_running", game=game.id, place=place))
    return {"content": "\n".join(lines), "allowed_mentions": discord.AllowedMentions.none(), "view": view}


async def update_announcement(bot: GameBot, game: GameRow) -> None:
    """Bring the game's announcement in the channel up to date (e.g. drop its Join button once it started)."""
    message_id = game.options.get("announcement")
    if not message_id or not game.channel_id:
        return
    channel = channel_place(bot, game.channel_id, game.guild_id)
    edit_later(channel.get_partial_message(message_id).edit(**announcement(game)),
               f"update the announcement of game {game.id}")
