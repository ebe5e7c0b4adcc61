"""Tournaments as Discord messages: the registration message, the table (an embed for a league, pictures for the
other formats), and what is posted when a match ends - the league's new table; a round's standings (and the
bracket) when a round is over, the next round's matches each in its own thread, the podium at the end."""

from __future__ import annotations

import logging
from io import BytesIO

import discord

from cogs.views import LeagueJoin, LeagueLeave, LeagueStart
from cogs.weblinks import link_button, with_link
from engines import ENGINES
from host.locale import t, use_language
from host.tournaments import Event, Progress, tournaments_of
from render import tournament as pictures

log = logging.getLogger(__name__)


async def bracket_link(bot, event: Event) -> discord.ui.Button | None:
    """The "Bracket" link button of a tournament's posts (cogs/weblinks.py)."""
    return await link_button(bot, "bracket", event.guild_id, event.id, event.lang)


def registration_message(event: Event, link: discord.ui.Button | None = None) -> dict:
    """The tournament's public message: format, who is in, Join/Leave/Start while it is open, and the web page's
    link (``link``, from :func:`bracket_link`)."""
    use_language(event.lang)
    title = ENGINES[event.engine].title
    embed = discord.Embed(title=t("tournament_title", tournament=event.id, title=title) if event.format == "league"
                          else t("event_title", tournament=event.id, title=title, format=t(f"format_{event.format}")),
                          description=t("tournament_body" if event.format == "league" else f"event_body_{event.format}",
                                        organizer=f"<@{event.organizer_id}>", rounds=event.total_rounds()),
                          colour=discord.Colour.dark_gold())
    embed.add_field(name=t("tournament_players", count=len(event.entries), max=event.cap),
                    value="\n".join(f"{i}. {discord.utils.escape_markdown(name)}"
                                    for i, (_, name) in enumerate(event.entries, start=1))[:1024], inline=False)
    settings = event.settings
    details = []
    if event.table_size > 2:
        details.append(t("event_tables", size=event.table_size))
    if settings.get("third_place") and event.format == "elimination":
        details.append(t("event_third_place"))
    if settings.get("double") and event.format == "roundrobin":
        details.append(t("event_double"))
    if settings.get("round_hours"):
        details.append(t("event_round_hours", hours=settings["round_hours"]))
    if settings.get("time_control"):
        details.append(t("event_time_control", control=discord.utils.escape_markdown(settings["time_control"])))
    if details:
        embed.add_field(name=t("event_settings"), value="\n".join(details), inline=False)
    status = "cancelled" if event.cancelled else "paused" if event.paused else event.status
    embed.set_footer(text=t(f"tournament_status_{status}"))
    view = discord.ui.View(timeout=None)
    if event.status == "open":
        view.add_item(LeagueJoin(event.id))
        if event.format != "league":
            view.add_item(LeagueLeave(event.id))
        view.add_item(LeagueStart(event.id))
    return {"embed": embed, "view": with_link(view, link)}


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
    """The standings pictures (and the bracket's, for an elimination) of a tournament that is not a league."""
    service = tournaments_of(bot)
    event, rows = await service.standings(tournament_id, who)
    title = ENGINES[event.engine].title
    labels = {"place": "#", "name": t("picture_player"), "points": t("picture_points"),
              "buchholz": t("picture_buchholz"), "sonneborn": t("picture_sonneborn"), "record": t("picture_record")}
    view = {"title": t("event_picture_title", tournament=event.id, title=title, format=t(f"format_{event.format}")),
            "subtitle": t("event_picture_round", round=event.round, rounds=event.total_rounds()),
            "labels": labels,
            "rows": [{"place": i, "name": name, "points": r.points, "buchholz": r.buchholz, "sonneborn": r.sonneborn,
                      "record": f"{r.wins}–{r.draws}–{r.losses}", "dropped": r.dropped}
                     for i, (r, name) in enumerate(rows, start=1)]}
    images = pictures.standings_pages(view)
    if event.format == "elimination" and event.status != "open":
        _, matches = await service.bracket(tournament_id)
        names = event.names
        seed = {p: i for i, p in enumerate(event.seeds)}
        for m in matches:
            if m["places"] is not None or len(m["players"]) == 1:
                best = min(range(len(m["players"])), key=lambda i: ((m["places"] or [1])[i], seed.get(m["players"][i], 0)))
                m["winner"] = names.get(m["players"][best], str(m["players"][best]))
        images += pictures.bracket_pages({
            "title": t("event_bracket_title", tournament=event.id, title=title), "rounds": event.total_rounds(),
            "labels": {"round": t("picture_round", round="{round}"), "final": t("picture_final"), "third": t("picture_third"),
                       "bye": t("picture_bye")}, "matches": matches})
    files = [discord.File(BytesIO(png), filename=f"tournament-{event.id}-{i}.png") for i, png in enumerate(images)]
    return event, files[:10]


async def _channel(bot, event: Event):
    return bot.get_channel(event.channel_id) or await bot.fetch_channel(event.channel_id)


async def post_progress(bot, progress: Progress, channel=None) -> None:
    """Tell the tournament's channel what a change did: the round that ended (standings and bracket), the
    next round's matches (each opened in its own thread), the podium at the end."""
    from cogs.actions import post_matches  # (actions imports publish, which imports this module)
    from cogs.places import places_of

    event = progress.event
    if event.format == "league":
        return
    use_language(event.lang)
    channel = channel or await _channel(bot, event)
    none = discord.AllowedMentions.none()
    link = {"view": view} if (view := with_link(None, await bracket_link(bot, event))) else {}
    if progress.round_over and not progress.finished:
        _, files = await pictures_of(bot, event.id)
        await channel.send(t("event_round_over", tournament=event.id, round=progress.round_over), files=files,
                           allowed_mentions=none, **link)
    if progress.finished:
        event = await tournaments_of(bot).tournament(event.id)
        _, files = await pictures_of(bot, event.id)
        podium = await tournaments_of(bot).podium(event.id)
        png = pictures.render_podium({"title": t("event_podium_title", tournament=event.id,
                                                 title=ENGINES[event.engine].title), "places": podium})
        files.insert(0, discord.File(BytesIO(png), filename=f"podium-{event.id}.png"))
        champion = ", ".join(podium[0]) if podium else "?"
        await channel.send(t("tournament_champion_event", tournament=event.id, name=champion), files=files[:10],
                           allowed_mentions=none, **link)
        return
    if progress.started:
        for outcome in progress.started:  # each gets its thread from the opener, in turn (cogs/places.py)
            places_of(bot).hold(outcome.game.id, outcome)
        event = await tournaments_of(bot).tournament(event.id)
        head = t("event_round_begun", tournament=event.id, round=event.round, count=len(progress.started))
        await post_matches(bot, channel, event.id, head, [o.game.id for o in progress.started], "event_match")


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
    from cogs.publish import publish  # (publish imports this module)

    for _, progress in await tournaments_of(bot).settle_overdue(now):
        for game_id in progress.changed:
            await publish(bot, game_id=game_id)
        await post_progress(bot, progress)
