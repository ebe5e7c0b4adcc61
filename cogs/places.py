"""Games' places on Discord under Discord's load rules: the thread opener and the thread archiver.

**Opening.** Every game of a server channel gets its thread from one opener (``Places``), never from the click
that made it: the game is saved first with no thread (``host/places.py``: that is the queue, in the database, so
a restart loses nothing), and the opener makes the threads one after another, as fast as Discord's thread bucket
allows (discord.py paces itself by the rate-limit headers; a wait too long for it, ``RateLimited``, parks that
channel until Discord's ``retry_after``). Nothing is posted for a game before its thread is open (the publisher
leaves its board owed). ``/<game> new`` waits up to ``PLACE_WAIT`` seconds for its thread and otherwise answers
that the game is queued, with when; a tournament round lists its matches with their threads, or where each is in
the queue and about when it will open, and that post is brought up to date as the threads open. When a thread
opens for a game that waited (and always for a tournament match), its first message mentions the players, which
also adds them to the thread.

**At the cap** (1,000 active threads in a server, code 160006) the opener first archives the server's threads of
games that are over (the oldest first, even those still in their grace time) and tries again; if the server is
still full (other people's threads), the game is played in the channel itself, and its first message says why.
A channel the bot may not make threads in (403) is handled the same way.

**Archiving.** A game that is over keeps its thread active for ``ARCHIVE_AFTER_MINUTES`` (10; time for "gg" and
Rematch), then the archiver posts a last message saying the thread is archived and archives it (the bot made the
thread, so it needs no Manage Threads for this); a message from anyone reopens it. Only games over in the last
seven days are looked at: older threads Discord archived by itself (their auto-archive is a week).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import cast

import aiohttp
import discord
from discord.ext import commands, tasks

from cogs.gamebot import GameBot
from cogs.permissions import lacking_in
from cogs.publish import game_place, lobby_message, mentions, publish, update_announcement
from cogs.publisher import owned
from engines import ENGINES
from host.locale import t, use_language
from host.places import Pace, minutes, opening_owed, waiting_for_place
from store import GameRow

log = logging.getLogger(__name__)

#: seconds ``/<game> new`` waits for its thread before answering that the game is queued
PLACE_WAIT = 3.0
#: the opener looks at the database this often even when nobody asked (after a restart, a failed try)
IDLE_CHECK = 30.0
#: a channel whose thread could not be made for a passing reason is tried again after this many seconds
RETRY_LATER = 30.0
#: the archiver's round, and how many threads it archives in one round
ARCHIVE_EVERY = 60.0
ARCHIVE_BATCH = 20
#: threads of games over longer ago than this were archived by Discord itself (a week of inactivity)
RECENT = timedelta(days=7)
#: finished games' threads archived at once when a server is at the cap
FREE_AT_CAP = 10
#: seconds between updates of a tournament round's post while its threads open
REFRESH_EVERY = 10.0
MAX_ACTIVE_THREADS = 160006
UNKNOWN_CHANNEL = 10003
ARCHIVED = 50083
TRANSIENT = (aiohttp.ClientError, OSError, asyncio.TimeoutError)


class Places(commands.Cog):
    """The thread opener and archiver of this process's games (see the module's docstring)."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.pace = Pace()
        self.archive_after = timedelta(minutes=getattr(bot.settings, "archive_after_minutes", 10.0))
        self._drain: asyncio.Task | None = None
        self._again = False
        self._archiving: asyncio.Task | None = None
        self._waiters: dict[int, list[asyncio.Future]] = {}
        #: channel id -> loop time before which no thread is tried there (Discord said how long to wait)
        self._blocked: dict[int, float] = {}
        #: the queue as last read (game ids in the order they will be opened)
        self.queue: list[int] = []
        #: what the command that made a game left for its opening: the board it rendered, people to call in
        self._held: dict[int, tuple[object | None, list[int]]] = {}
        #: tournament id -> its round posts: the line's locale key, and (channel id, message id, first line,
        #: game ids listed there) per message; and when they were last brought up to date
        self._posts: dict[int, tuple[str, list[tuple[int, int, str | None, list[int]]]]] = {}
        self._refreshed: dict[int, float] = {}
        #: message id -> the text it was last given (an unchanged post is not edited again)
        self._texts: dict[int, str] = {}
        #: game id -> why Discord refused its opening (it was called off), for the command that waits for it
        self.refused: dict[int, str] = {}
        #: games whose opening is being posted now (the opener leaves them alone meanwhile)
        self._settling: set[int] = set()

    async def cog_load(self) -> None:
        self.watch.start()
        self.archiver.start()

    async def cog_unload(self) -> None:
        self.watch.cancel()
        self.archiver.cancel()
        for task in (self._drain, self._archiving):
            if task is not None:
                task.cancel()

    # -- asking for a place -------------------------------------------------------------------------

    def hold(self, game_id: int, outcome=None, call: Sequence[int] = ()) -> None:
        """Keep what the game's opening needs: its first board already rendered, people to call in."""
        self._held[game_id] = (outcome, list(call))

    def kick(self) -> None:
        """Open what waits, now: one drain of the queue at a time (it ends when nothing more can be opened)."""
        if self._drain is None or self._drain.done():
            self._drain = asyncio.create_task(self._drain_queue())
        else:
            self._again = True  # the running drain reads the queue again (a command's game goes first)

    async def request(self, game_id: int, *, wait: float = 0.0) -> int | None:
        """Ask for the game's thread; wait up to ``wait`` seconds for it. Returns the place (a thread, or the
        channel at the cap), or None while the game is queued (it gets its place later, also after a restart)."""
        self.kick()
        if wait <= 0:
            return None
        future = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(game_id, []).append(future)
        try:
            return await asyncio.wait_for(asyncio.shield(future), wait)
        except TimeoutError:
            return None
        finally:
            waiting = self._waiters.get(game_id, [])
            if future in waiting:
                waiting.remove(future)
            if not waiting:
                self._waiters.pop(game_id, None)

    def eta(self, game: GameRow) -> tuple[int, float | None]:
        """(games before it in the queue, seconds until its thread opens or None when not known yet)."""
        ahead = self.queue.index(game.id) if game.id in self.queue else len(self.queue)
        blocked = max(self._blocked.get(game.channel_id or 0, 0.0) - asyncio.get_running_loop().time(), 0.0)
        pace = self.pace.eta(ahead)
        if pace is None:
            return ahead, blocked or None
        return ahead, blocked + pace

    def where(self, game: GameRow, lang: str | None = None) -> str:
        """Where a game is, for a player: its thread, or where it is in the queue and about when it opens."""
        if not waiting_for_place(game):
            return f"<#{game.thread_id or game.channel_id}>"
        ahead, seconds = self.eta(game)
        if seconds is None:
            return t("place_queued", lang, ahead=ahead)
        return t("place_queued_eta", lang, ahead=ahead, minutes=minutes(seconds))

    # -- the opener ---------------------------------------------------------------------------------

    @tasks.loop(seconds=IDLE_CHECK)
    async def watch(self) -> None:
        """Now and then (and once connected after a start): open what waits, e.g. matches a restart left."""
        self.kick()

    @watch.before_loop
    async def _connected(self) -> None:
        await self.bot.wait_until_ready()

    async def _drain_queue(self) -> None:
        while True:
            self._again = False
            try:
                progressed = await self.open_waiting()
            except Exception:  # one bad round must not stop the opener; the watch kicks it again
                log.exception("opening the threads of waiting games failed")
                return
            if not progressed and not self._again:
                break
        loop = asyncio.get_running_loop()
        soonest = min(self._blocked.values(), default=None)
        if soonest is not None:  # a channel Discord asked to wait: come back then (a timer, not a task)
            loop.call_later(max(0.05, soonest - loop.time()), self.kick)

    async def open_waiting(self) -> bool:
        """Open the threads of the waiting games (this process's), in queue order, skipping channels Discord
        asked to wait; re-reads the queue when a new game asked meanwhile. Returns whether any opened."""
        games = await self.bot.service.store.games_waiting_for_place(shards=owned(self.bot))
        self.queue = [g.id for g in games]
        loop = asyncio.get_running_loop()
        progressed = False
        for game in games:
            if game.channel_id is None or game.id in self._settling:  # (a channel's games only; one at a time)
                continue
            if self._blocked.get(game.channel_id, 0.0) > loop.time():
                continue
            self._blocked.pop(game.channel_id, None)
            if await self.open_one(game):
                progressed = True
            if self._again:
                break  # someone asked for a place meanwhile: read the queue again (a command's game goes first)
        return progressed

    async def open_one(self, game: GameRow) -> bool:
        """Give one waiting game its place (a new thread, or the channel) and post its opening there."""
        use_language(game.lang)
        loop = asyncio.get_running_loop()
        began = loop.time()
        channel_id = game.channel_id
        assert channel_id is not None, "a game waiting for a place is one of a channel (store: games_waiting_for_place)"
        if opening_owed(game) and game.thread_id is not None:  # a restart came between its place and its opening
            await self.settle(game, game.thread_id)
            return True
        try:
            parent = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        except discord.NotFound:
            parent = None
        except (discord.HTTPException, *TRANSIENT) as exc:
            log.info("cannot look up channel %s of game %s now: %s", channel_id, game.id, exc)
            self._blocked[channel_id] = loop.time() + RETRY_LATER
            return False
        notice = None
        if isinstance(parent, discord.TextChannel):
            found, notice = await self._thread_for(parent, game)
            if found is None:
                return False
            place = found
            if place != parent.id:
                self.pace.record(loop.time() - began)
        else:  # the channel is gone, or cannot hold threads: the game is played where it was made
            place = channel_id
        await self.settle(game, place, notice=notice)
        return True

    async def _thread_for(self, parent: discord.TextChannel, game: GameRow) -> tuple[int | None, str | None]:
        """(place, notice): a new thread; the channel at the cap or without permission (with the notice to
        post); None to try again later (Discord asked to wait, or a passing fault)."""
        loop = asyncio.get_running_loop()
        name = f"{ENGINES[game.engine].title} #{game.id}"[:100]
        for attempt in (1, 2):
            try:
                thread = await parent.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                    auto_archive_duration=10080)
                return thread.id, None
            except discord.RateLimited as exc:  # longer than discord.py waits by itself
                log.info("thread creation in %s is rate limited for %.0f s", parent.id, exc.retry_after)
                self._blocked[parent.id] = loop.time() + exc.retry_after
                return None, None
            except discord.HTTPException as exc:
                if exc.code == MAX_ACTIVE_THREADS:
                    if attempt == 1 and await self.archive_finished(guild_id=game.guild_id, limit=FREE_AT_CAP,
                                                                    grace=False):
                        continue  # threads of games that are over were archived: try again
                    log.warning("server %s is at Discord's cap of active threads: game %s is played in channel"
                                " %s", game.guild_id, game.id, parent.id)
                    return parent.id, "place_cap_channel"
                if exc.status == 429 or exc.status >= 500:
                    self._blocked[parent.id] = loop.time() + RETRY_LATER
                    return None, None
                log.warning("cannot create a thread in %s: %s; game %s lives in the channel", parent.id, exc,
                            game.id)
                self._report(game.guild_id, parent.id)
                return parent.id, "place_no_thread_channel"
            except TRANSIENT as exc:
                log.info("could not create a thread in %s now: %s", parent.id, exc)
                self._blocked[parent.id] = loop.time() + RETRY_LATER
                return None, None
        return parent.id, "place_cap_channel"

    async def settle(self, game: GameRow, place: int, *, notice: str | None = None, outcome=None,
                     call: Sequence[int] = (), tell: bool | None = None, answered: bool = False) -> None:
        """The game lives at ``place`` from now on: record it, post its first message there (the lobby; for a
        game nobody is waiting for right now - it was queued, or is a tournament match - with its players
        mentioned, which also adds them to the thread), then whatever board it owes. ``outcome``/``call``: as
        :meth:`hold`; ``tell``: mention the players (default: as said); ``answered``: the command that made the
        game tells its opener if the game cannot be opened there (see :meth:`_call_off`)."""
        self._settling.add(game.id)
        try:
            await self._settle(game, place, notice=notice, outcome=outcome, call=call, tell=tell, answered=answered)
        finally:
            self._settling.discard(game.id)

    async def _settle(self, game: GameRow, place: int, *, notice: str | None, outcome, call: Sequence[int],
                      tell: bool | None, answered: bool) -> None:
        bot = self.bot
        held, held_call = self._held.pop(game.id, (None, []))
        outcome, call = outcome or held, list(call) or held_call
        # the place and "its first message is owed" in one write: a restart before that message posts it (the
        # opener's queue holds the game, the publisher holds its boards), never a board first
        await bot.service.attach(game.id, thread_id=place, opening_owed=True)
        game = await bot.service.game(game.id)
        use_language(game.lang)
        players = [s.user_id for s in game.seats if s.user_id]
        if tell is None:
            tell = bool(notice or game.tournament_id or not self._waiters.get(game.id))
        told = players if tell else []
        lines = [t(notice, game=game.id)] if notice else []
        if told:
            lines.append(t("place_ready", game=game.id, mentions=" ".join(f"<@{u}>" for u in told)))
        try:
            # a nonce: if this process dies after Discord took the message, the next one's repeat is not posted
            lobby = await game_place(bot, game).send(content="\n".join(lines) or None, nonce=f"gh{game.id}open",
                                                     allowed_mentions=mentions(told), **lobby_message(game))
            await bot.service.attach(game.id, board_message_id=lobby.id, opening_owed=False)
            if call and game.status == "lobby":  # in the game's thread: the mention also adds them to it
                await game_place(bot, game).send(t("rematch_call", mentions=" ".join(f"<@{u}>" for u in call)),
                                                 allowed_mentions=mentions(call))
        except discord.HTTPException as exc:  # the board is still owed: the publisher keeps trying
            if exc.status == 403 and not game.tournament_id:
                await self._call_off(game, place, exc, answered=answered)
                return
            log.warning("could not post the opening of game %s in %s: %s", game.id, place, exc)
            await bot.service.attach(game.id, opening_owed=False)
        if game.id in self.queue:
            self.queue.remove(game.id)
        if outcome is not None:
            outcome.game = await bot.service.game(game.id)
        await publish(bot, outcome, game_id=game.id)
        for future in self._waiters.pop(game.id, []):  # the command that made it answers: its board is up
            if not future.done():
                future.set_result(place)
        if game.options.get("announcement"):
            await update_announcement(bot, game)
        if game.tournament_id:
            await self.refresh_posts(game.tournament_id)

    async def _call_off(self, game: GameRow, place: int, exc: discord.HTTPException, *, answered: bool) -> None:
        """Discord refused a game's first message where it was to live (a permission taken away since it was
        checked, cogs/permissions.py): nothing stays half open. The game is called off with nothing owed, the
        thread made for it is removed, and its opener is told why: by the command waiting for it (``refused``),
        else by DM. A tournament match is not called off (its board stays owed, as for any other fault)."""
        bot = self.bot
        log.warning("game %s could not be opened in %s (%s); called off", game.id, place, exc)
        await bot.service.call_off(game.id)
        self.refused[game.id] = exc.text or str(exc.status)
        self._report(game.guild_id, game.channel_id)
        if game.id in self.queue:
            self.queue.remove(game.id)
        if place != game.channel_id and game.guild_id is not None:
            try:
                await bot.http.delete_channel(place)
            except discord.HTTPException as failed:
                log.info("could not remove the empty thread %s of game %s: %s", place, game.id, failed)
        waiting = self._waiters.pop(game.id, [])
        for future in waiting:
            if not future.done():
                future.set_result(place)
        if not waiting and not answered and game.host_user_id:
            try:
                dm = await bot.create_dm(discord.Object(game.host_user_id))
                await dm.send(t("open_failed", game.lang, place=f"<#{place}>", reason=self.refused.pop(game.id)),
                              allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("could not tell the host of game %s that it was called off", game.id)

    def _report(self, guild_id: int | None, channel_id: int | None) -> None:
        """Tell the server's admins (once, cogs/permissions.py) what the bot lacks in a channel Discord refused."""
        lacking = lacking_in(self.bot, guild_id, channel_id)
        if lacking:
            self.bot.dispatch("gamehost_missing_permissions", guild_id, channel_id, lacking)

    # -- tournament round posts -----------------------------------------------------------------------

    async def remember_posts(self, tournament_id: int, line_key: str,
                             posts: list[tuple[int, int, str | None, list[int]]]) -> None:
        """A round's post(s) listing its matches, brought up to date as their threads open; kept with the
        tournament (its settings), so a restart goes on updating them."""
        self._posts[tournament_id] = (line_key, posts)
        self._refreshed[tournament_id] = asyncio.get_running_loop().time()
        await self._save_posts(tournament_id, {"key": line_key, "posts": [list(p) for p in posts]})

    def sent(self, message_id: int, text: str) -> None:
        """A round post was sent with ``text``."""
        self._texts[message_id] = text

    async def _save_posts(self, tournament_id: int, value: dict | None) -> None:
        store = self.bot.service.store
        extra = await store.tournament_extra(tournament_id)
        if extra is not None:
            settings = dict(extra.get("settings") or {})
            if value is None:
                settings.pop("round_posts", None)
            else:
                settings["round_posts"] = value
            await store.update_tournament(tournament_id, settings=settings)

    async def _posts_of(self, tournament_id: int):
        found = self._posts.get(tournament_id)
        if found is None:
            extra = await self.bot.service.store.tournament_extra(tournament_id) or {}
            saved = (extra.get("settings") or {}).get("round_posts")
            if saved:
                found = self._posts[tournament_id] = (saved["key"], [tuple(p) for p in saved["posts"]])
        return found

    async def match_lines(self, game_ids: list[int], line_key: str) -> list[str]:
        """A line per match: its players and its thread, or its place in the queue and about when."""
        games = [await self.bot.service.store.get_game(g, with_snapshot=False) for g in game_ids]
        lines = []
        for game in games:  # the places read at one moment: the queue moves while the games are read
            if game is None:
                continue
            names = " — ".join(s.name for s in sorted(game.seats, key=lambda s: s.seat))
            lines.append(t(line_key, players=names, place=self.where(game)))
        return lines

    async def refresh_posts(self, tournament_id: int, *, force: bool = False) -> None:
        """Bring a round's post up to date (at most every ``REFRESH_EVERY`` s unless ``force``, and once all
        are open); a message whose text did not change is left alone."""
        found = await self._posts_of(tournament_id)
        if found is None:
            return
        line_key, posts = found
        loop = asyncio.get_running_loop()
        games = [g for _, _, _, ids in posts for g in ids]
        pending = [g for g in games if g in self.queue]
        if pending and not force and loop.time() - self._refreshed.get(tournament_id, 0.0) < REFRESH_EVERY:
            return
        self._refreshed[tournament_id] = loop.time()
        if not pending:
            self._posts.pop(tournament_id, None)
            await self._save_posts(tournament_id, None)
        for channel_id, message_id, head, ids in posts:
            body = "\n".join([*([head] if head else []), *await self.match_lines(ids, line_key)])[:2000]
            if self._texts.get(message_id) == body:
                continue
            self._texts[message_id] = body
            channel = self.bot.get_partial_messageable(channel_id)
            try:
                await asyncio.wait_for(channel.get_partial_message(message_id).edit(
                    content=body, allowed_mentions=discord.AllowedMentions.none()), REFRESH_EVERY)
            except (discord.HTTPException, discord.RateLimited, *TRANSIENT) as exc:
                log.info("could not update the round post %s: %s", message_id, exc)

    # -- the archiver ---------------------------------------------------------------------------------

    @commands.Cog.listener("on_gamehost_game_over")
    async def _game_over(self, game_id: int) -> None:
        if not self.archive_after and (self._archiving is None or self._archiving.done()):
            self._archiving = asyncio.create_task(self._archive_round())

    @tasks.loop(seconds=ARCHIVE_EVERY)
    async def archiver(self) -> None:
        await self._archive_round()

    @archiver.before_loop
    async def _connected_too(self) -> None:
        await self.bot.wait_until_ready()

    async def _archive_round(self) -> None:
        try:
            await self.archive_finished()
        except Exception:  # a failed round must not stop the archiver
            log.exception("archiving the threads of finished games failed")

    async def archive_finished(self, *, guild_id: int | None = None, limit: int = ARCHIVE_BATCH,
                               grace: bool = True) -> int:
        """Archive the threads of games over (for ``ARCHIVE_AFTER_MINUTES``, unless ``grace`` is off), the
        oldest first; of one server, or of this process's. Returns how many were archived."""
        now = datetime.now(UTC)
        games = await self.bot.service.store.threads_to_archive(
            ended_before=now - (self.archive_after if grace else timedelta(0)) + timedelta(seconds=1),
            ended_after=now - RECENT, guild_id=guild_id, shards=owned(self.bot) if guild_id is None else None,
            limit=limit)
        archived = 0
        for game in games:
            archived += await self.archive(game)
        return archived

    async def archive(self, game: GameRow) -> bool:
        """Post the last message in a finished game's thread and archive it. False when it must be tried
        again later (a passing fault or a rate limit)."""
        use_language(game.lang)
        store = self.bot.service.store
        assert game.thread_id is not None, "only games with a thread are archived (store: threads_to_archive)"
        try:
            await game_place(self.bot, game).send(t("thread_archived", game=game.id),
                                                  allowed_mentions=discord.AllowedMentions.none())
            await self.bot.http.edit_channel(game.thread_id, archived=True)
        except discord.HTTPException as exc:
            if exc.status == 429 or exc.status >= 500:
                return False
            if exc.code not in (UNKNOWN_CHANNEL, ARCHIVED):
                log.warning("could not archive the thread %s of game %s: %s", game.thread_id, game.id, exc)
        except (discord.RateLimited, *TRANSIENT):
            return False
        await store.set_thread_archived(game.id)
        return True


def places_of(bot: GameBot) -> Places:
    """The bot's thread opener (the Places cog)."""
    cog = bot.get_cog("Places")
    if cog is None:
        raise RuntimeError("the Places cog is not loaded")
    # (not isinstance: load_extension runs this module anew, so the cog's class is the loaded module's Places,
    # which need not be the one an earlier import of this module made)
    return cast(Places, cog)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Places(bot))
