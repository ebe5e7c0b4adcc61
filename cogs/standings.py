"""Tournaments as Discord messages: the registration message, the table (an embed for a league, pictures for the
other formats), and what is posted when a match ends - the league's new table; a round's standings (and the
bracket) when a round is over, the next round's matches each in its own thread, the podium at the end."""

from __future__ import annotations

import logging
from io import BytesIO

import discord

from cogs.places import places_of
from cogs.publish import publish
from cogs.views import LeagueCheckIn, LeagueJoin, LeagueLeave, LeagueStart
from cogs.weblinks import link_button, with_link
from engines import ENGINES
from host import clock as clocks
from host.locale import t, use_language
from host.tournaments import Event, Progress, tournaments_of
from host.workers import Overrun
from render import tournament as pictures
from tournaments import double as double_elimination

log = logging.getLogger(__name__)


async def bracket_link(bot, event: Event) -> discord.ui.Button | None:
    """The "Bracket" link button of a tournament's posts (cogs/weblinks.py)."""
    return await link_button(bot, "bracket", event.guild_id, event.id, event.lang)


def round_name(event: Event, round_no: int, lang: str | None = None) -> str:
    """What a round is called: "round 3"; in an elimination, by how far it is from the end ("final",
    "semi-finals", "quarter-finals", "round of 16")."""
    if event.double_elimination:
        return _double_round_name(event, round_no, lang)
    if event.format != "elimination":
        return t("round_name", lang, round=round_no)
    left = event.total_rounds() - round_no
    if left <= 2:
        return t(("round_name_final", "round_name_semi", "round_name_quarter")[left], lang)
    return t("round_name_of", lang, count=2 ** (left + 1))


def _double_round_name(event: Event, round_no: int, lang: str | None) -> str:
    """A round of a double elimination: the winners' and the losers' rounds it holds ("round 3: winners'
    final, losers' round 2"), then the grand final and its second match."""
    total = event.total_rounds()
    if round_no >= total:
        return t(("round_name_grand", "round_name_reset")[min(round_no - total, 1)], lang)
    k, stages = total // 2, []
    if round_no <= k:
        stages.append(t("stage_winners_final", lang) if round_no == k else t("stage_winners", lang, round=round_no))
    if round_no > 1:
        lr = round_no - 1
        stages.append(t("stage_losers_final", lang) if lr == total - 2 else t("stage_losers", lang, round=lr))
    return t("round_name_double", lang, round=round_no, stages=", ".join(stages))


def control_text(event: Event, lang: str | None = None) -> str:
    """The matches' time control in words ("1 day per move"), or the league clock's when none was chosen."""
    name = event.settings.get("time_control") or clocks.LEAGUE_CLOCK["control"]
    return t(f"time_control_{name}", lang)


def tiebreak_names(event: Event, lang: str | None = None) -> str:
    return ", ".join(t(f"tiebreak_{k}", lang) for k in event.tiebreaks)


def registration_message(event: Event, link: discord.ui.Button | None = None) -> dict:
    """The tournament's public message: format, settings, who is in (and who checked in); Join/Leave/Start (and
    Check in) while it is open, no buttons once it has started; the web page's link (``link``, from
    :func:`bracket_link`) throughout."""
    use_language(event.lang)
    title = ENGINES[event.engine].title
    embed = discord.Embed(title=t("tournament_title", tournament=event.id, title=title) if event.format == "league"
                          else t("event_title", tournament=event.id, title=title, format=t(f"format_{event.kind}")),
                          description=t("tournament_body" if event.format == "league" else f"event_body_{event.kind}",
                                        organizer=f"<@{event.organizer_id}>", rounds=event.total_rounds()),
                          colour=discord.Colour.dark_gold())
    checked = event.checked_in
    embed.add_field(name=t("tournament_players", count=len(event.entries), max=event.cap),
                    value="\n".join(f"{i}. {discord.utils.escape_markdown(name)}"
                                    + (" ✅" if checked is not None and uid in checked else "")
                                    for i, (uid, name) in enumerate(event.entries, start=1))[:1024], inline=False)
    settings = event.settings
    details = []
    if event.table_size > 2:
        details.append(t("event_tables", size=event.table_size))
    if settings.get("third_place") and event.format == "elimination":
        details.append(t("event_third_place"))
    if event.best_of > 1:
        details.append(t("event_best_of", best_of=event.best_of))
    if settings.get("double") and event.format == "roundrobin":
        details.append(t("event_double"))
    if settings.get("round_hours"):
        details.append(t("event_round_hours", hours=settings["round_hours"]))
    if event.format != "league":
        details.append(t("event_time_control", control=control_text(event)))
    if event.format in ("swiss", "roundrobin"):
        details.append(t("event_tiebreaks", names=tiebreak_names(event)))
    if settings.get("review"):
        details.append(t("event_review"))
    if checked is not None and event.status == "open":
        details.append(t("event_checkin", count=len(checked), total=len(event.entries)))
    if details:
        embed.add_field(name=t("event_settings"), value="\n".join(details), inline=False)
    status = "cancelled" if event.cancelled else "paused" if event.paused else event.status
    embed.set_footer(text=t(f"tournament_status_{status}"))
    view = discord.ui.View(timeout=None)
    if event.status == "open":
        view.add_item(LeagueJoin(event.id))
        if event.format != "league":
            view.add_item(LeagueLeave(event.id))
        if checked is not None:
            view.add_item(LeagueCheckIn(event.id))
        view.add_item(LeagueStart(event.id))
    return {"embed": embed, "view": with_link(view, link)}


async def redraw_registration(bot, event: Event) -> None:
    """Bring the registration message up to date (who is in, the status; its buttons gone once started) - a
    cosmetic edit that may fail (the message deleted or too old): then it stays as it was."""
    if not event.message_id or not event.channel_id:
        return
    try:
        channel = bot.get_partial_messageable(event.channel_id)
        await channel.get_partial_message(event.message_id).edit(
            **registration_message(event, await bracket_link(bot, event)))
    except discord.HTTPException:
        log.info("could not redraw the registration message of tournament %s", event.id)


async def table_embed(bot, tournament_id: int, who=None) -> tuple[discord.Embed, object]:
    """The league table as an embed; ``who`` (an Asker) is fenced like any game (None: the bot itself)."""
    league, rows, over, total = await tournaments_of(bot).tournament_table(tournament_id, asker=who)
    embed = discord.Embed(title=t("tournament_title", tournament=league.id, title=ENGINES[league.engine].title),
                          colour=discord.Colour.dark_gold())
    embed.description = "\n".join(
        t("tournament_row", place=i, name=discord.utils.escape_markdown(name), points=f"{r.points:g}", wins=r.wins,
          draws=r.draws, losses=r.losses) for i, (r, name) in enumerate(rows, start=1))
    embed.set_footer(text=t("tournament_progress", over=over, total=total))
    return embed, (league, rows)


async def pictures_of(bot, tournament_id: int, who=None) -> tuple[Event, list[discord.File]]:
    """The standings pictures (and the bracket's, for an elimination) of a tournament that is not a league; the
    table shows the organizer's tie-breaks, named under the title."""
    service = tournaments_of(bot)
    event, rows = await service.standings(tournament_id, who)
    title = ENGINES[event.engine].title
    order = list(event.tiebreaks)[:3]
    labels = {"place": "#", "name": t("picture_player"), "points": t("picture_points"), "record": t("picture_record")}
    view = {"title": t("event_picture_title", tournament=event.id, title=title, format=t(f"format_{event.kind}")),
            "subtitle": t("event_picture_round", round=event.round, rounds=max(event.round, event.total_rounds())),
            "legend": t("event_tiebreaks", names=tiebreak_names(event)) if order else None,
            "labels": labels, "columns": [{"key": k, "label": t(f"tiebreak_short_{k}")} for k in order],
            "rows": [{"place": r.place, "name": name, "points": r.points,
                      "values": [_shown(r, k) for k in order],
                      "record": f"{r.wins}–{r.draws}–{r.losses}", "dropped": r.dropped}
                     for r, name in rows]}
    bracket = losers = None
    from_round = 1
    if event.format == "elimination" and event.status != "open":
        _, matches = await service.bracket(tournament_id)
        names = event.names
        seed = {p: i for i, p in enumerate(event.seeds)}
        for m in matches:
            if event.best_of > 1 and len(m["players"]) == 2:  # the games won, not the places
                wins, _ = await service.series_score(event, m["id"], m["players"])
                m["score"] = [wins[p] for p in m["players"]]
            if m["places"] is not None or len(m["players"]) == 1:
                best = min(range(len(m["players"])), key=lambda i: ((m["places"] or [1])[i], seed.get(m["players"][i], 0)))
                m["winner"] = names.get(m["players"][best], str(m["players"][best]))
        total, heading = event.total_rounds(), "event_bracket_title"
        if event.double_elimination:  # the winners' bracket is drawn; the losers' matches are in the table
            total, heading = total // 2, "event_bracket_winners_title"
            all_matches, matches = matches, [m for m in matches if m["slot"] < double_elimination.LOSERS]
            losers = _losers_view(event, title, all_matches)
        bracket = {
            "title": t(heading, tournament=event.id, title=title), "rounds": total,
            "heads": {r: (t("picture_round", round=r) if event.double_elimination else
                          round_name(event, r).capitalize()) for r in range(1, total + 1)},
            "labels": {"round": t("picture_round", round="{round}"), "final": t("picture_final"),
                       "third": t("picture_third")},
            "matches": matches}
        from_round = max(1, min(event.round, total))
    try:  # drawn off the event loop (a table of 512 players is many pictures), with a budget
        images = await bot.service.workers.run("picture", pictures.pages, view, bracket, losers, from_round)
    except Overrun:
        log.warning("the pictures of tournament %s took too long to draw", event.id)
        images = []
    files = [discord.File(BytesIO(png), filename=f"tournament-{event.id}-{i}.png") for i, png in enumerate(images)]
    return event, files[:10]


def _losers_view(event: Event, title: str, matches: list[dict]) -> dict:
    """A double elimination's losers' bracket and grand final, a column a round, the round being played and the
    two before it (byes left out: their player is in the next column)."""
    total, columns = event.total_rounds(), []
    for r in sorted({m["round"] for m in matches}):
        shown = [m for m in matches if m["round"] == r and m["slot"] >= double_elimination.LOSERS
                 and len(m["players"]) == 2]
        if not shown or r < event.round - 2:  # the last three columns: the round played and the two before
            continue
        head = t("picture_grand_reset") if r > total else round_name(event, r) if r == total else \
            t("stage_losers_final") if r - 1 == total - 2 else t("stage_losers", round=r - 1)
        columns.append({"head": head[:1].upper() + head[1:], "matches": shown})
    return {"title": t("event_bracket_losers_title", tournament=event.id, title=title), "columns": columns}


def _shown(row, key: str):
    """A tie-break's value as the table shows it (a rating on the players' scale, never negative)."""
    value = row.tiebreaks.get(key, 0)
    if key == "rating":
        from tournaments.ratings import shown
        return "—" if value <= -10**8 else str(shown(float(value)))
    return value


async def _channel(bot, event: Event):
    return bot.get_channel(event.channel_id) or await bot.fetch_channel(event.channel_id)


async def post_progress(bot, progress: Progress, channel=None) -> None:
    """Tell the tournament's channel what a change did: its notes (a correction, a latecomer, a bye, rounds cut,
    who was left out at check-in), the round that ended (standings and bracket), a round paired and held for the
    organizer, the next round's matches (each opened in its own thread), the podium at the end."""
    event = progress.event
    if event.format == "league" and not progress.notes:
        return
    use_language(event.lang)
    channel = channel or await _channel(bot, event)
    none = discord.AllowedMentions.none()
    if progress.notes:
        lines = [t(key, **fields) for key, fields in progress.notes]
        mentions = " ".join(f"<@{u}>" for u in progress.mention)
        await channel.send("\n".join(lines + ([mentions] if mentions else []))[:1900],
                           allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in progress.mention],
                                                                    everyone=False, roles=False))
    if event.format == "league":
        return
    link = {"view": view} if (view := with_link(None, await bracket_link(bot, event))) else {}
    if progress.round_over and not progress.finished:
        _, files = await pictures_of(bot, event.id)
        await channel.send(_round_line(event, "event_round_over", progress.round_over), files=files,
                           allowed_mentions=none, **link)
    if progress.finished:
        event = await tournaments_of(bot).tournament(event.id)
        _, files = await pictures_of(bot, event.id)
        podium = await tournaments_of(bot).podium(event.id)
        try:
            png = await bot.service.workers.run("picture", pictures.render_podium, {
                "title": t("event_podium_title", tournament=event.id, title=ENGINES[event.engine].title),
                "places": podium})
            files.insert(0, discord.File(BytesIO(png), filename=f"podium-{event.id}.png"))
        except Overrun:
            log.warning("the podium of tournament %s took too long to draw", event.id)
        champion = ", ".join(podium[0]) if podium else "?"
        await channel.send(t("tournament_champion_event", tournament=event.id, name=champion), files=files[:10],
                           allowed_mentions=none, **link)
        return
    if progress.held and not progress.started:
        await _post_held(bot, channel, await tournaments_of(bot).tournament(event.id))
    if progress.started:
        for outcome in progress.started:  # each gets its thread from the opener, in turn (cogs/places.py)
            places_of(bot).hold(outcome.game.id, outcome)
        event = await tournaments_of(bot).tournament(event.id)
        if progress.series:  # the next game of a best-of-N match, not a new round
            key, fields = progress.series
            head = t(key, **fields)
        else:
            head = _round_line(event, "event_round_begun", event.round, count=len(progress.started))
            head += "\n" + t("event_clock", control=control_text(event))
        await post_matches(bot, channel, event.id, head, [o.game.id for o in progress.started], "event_match")


def _round_line(event: Event, key: str, round_no: int, **fields) -> str:
    if event.format == "elimination":
        return t(f"{key}_stage", tournament=event.id, stage=round_name(event, round_no).capitalize(), **fields)
    return t(key, tournament=event.id, round=round_no, **fields)


async def _post_held(bot, channel, event: Event) -> None:
    """A round paired and waiting for the organizer: its pairings, with the match numbers the organizer's tools
    take (no threads yet)."""
    names = event.names
    lines = [_round_line(event, "event_round_held", event.held)]
    for m in await tournaments_of(bot).store.matches(event.id, event.held):
        who = " — ".join(discord.utils.escape_markdown(names.get(p, str(p))) for p in m.players)
        key = {"bye": "event_held_bye", "half_bye": "event_held_half_bye"}.get(m.how or "", "event_held_match")
        lines.append(t(key, match=m.id, players=who))
    text, chunks = "", []
    for line in lines:
        if len(text) + len(line) + 1 > 1900:
            chunks.append(text)
            text = ""
        text = f"{text}\n{line}" if text else line
    for chunk in [*chunks, text]:
        await channel.send(chunk, allowed_mentions=discord.AllowedMentions.none())


async def match_over(bot, game) -> None:
    """Called when a tournament match has finished: a league posts its new table in its channel (and the
    winner); the other formats count the match and, at the end of a round, post it and pair the next one."""
    service = tournaments_of(bot)
    event = await service.tournament(game.tournament_id)
    if event.format != "league":
        await post_progress(bot, await service.match_over(game))
        return
    await service.match_over(game)
    embed, (league, rows) = await table_embed(bot, game.tournament_id)
    channel = bot.get_channel(league.channel_id) or await bot.fetch_channel(league.channel_id)
    content = None
    if league.status == "finished" and rows:
        content = t("tournament_champion", tournament=league.id, name=rows[0][1])
    await channel.send(content=content, embed=embed, allowed_mentions=discord.AllowedMentions.none())


async def round_deadlines(bot, now=None) -> None:
    """Settle the tournament matches past their round's deadline by their clock rules (see
    ``TournamentService.deadline_places``): each match's thread gets its last board saying so (from the
    outbox), then what it did is posted (the round's end, the next round). Called by the clock job."""
    for _, progress in await tournaments_of(bot).settle_overdue(now):
        for game_id in progress.changed:
            await publish(bot, game_id=game_id)
        await post_progress(bot, progress)


async def post_matches(bot, channel, tournament_id: int, head: str, games: list[int], line_key: str) -> None:
    """A tournament's matches just made, in its channel: a line each with its thread, or (while the thread
    waits its turn, cogs/places.py) where it is in the queue and about when; the post is kept up to date as
    the threads open, and each match's players are mentioned in their thread when it opens."""
    places = places_of(bot)
    places.kick()
    lines = await places.match_lines(games, line_key)
    posts = []
    for chunk, ids in _chunked(head, lines, games):
        message = await channel.send(chunk, allowed_mentions=discord.AllowedMentions.none())
        places.sent(message.id, chunk)
        posts.append((channel.id, message.id, head if not posts else None, ids))
    await places.remember_posts(tournament_id, line_key, posts)
    await places.refresh_posts(tournament_id, force=True)  # threads opened while it was being posted


def _chunked(head: str, lines: list[str], games: list[int], limit: int = 1700) -> list[tuple[str, list[int]]]:
    """The post's messages (each under Discord's 2,000 characters with room for the lines to change as the
    threads open) and the games each lists."""
    out: list[tuple[str, list[int]]] = []
    text, ids = head, []
    for line, game in zip(lines, games, strict=True):
        if ids and len(text) + len(line) + 1 > limit:
            out.append((text, ids))
            text, ids = "", []
        text = f"{text}\n{line}" if text else line
        ids.append(game)
    return [*out, (text, ids)] if text else out
