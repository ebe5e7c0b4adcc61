"""Interactions from elsewhere for the offline harness: from another server, or from a direct message (the
harness itself speaks as one member of one server)."""

from __future__ import annotations

from tests.discord_harness import components

OTHER_GUILD = 800_000_000_000_000_099
OTHER_CHANNEL = 700_000_000_000_000_099


def from_other_server(h, payload: dict, *, guild: int = OTHER_GUILD, channel: int = OTHER_CHANNEL) -> dict:
    """``payload`` (from ``h.payloads``) as if sent in ``channel`` of the server ``guild``."""
    payload["guild_id"] = str(guild)
    payload["guild"] = {"id": str(guild), "locale": "en-US", "features": []}
    payload["channel_id"] = str(channel)
    payload["channel"] = {"id": str(channel), "type": 0, "guild_id": str(guild), "name": "elsewhere",
                          "position": 0, "permission_overwrites": []}
    h.fake._channel_of[payload["token"]] = channel
    return payload


def from_dm(h, payload: dict, user_id: int) -> dict:
    """``payload`` as if sent in the user's direct messages with the bot."""
    channel = next((c for c, u in h.fake.dm_channels.items() if u == user_id), None) or h.fake.new_id()
    h.fake.dm_channels[channel] = user_id
    user = payload.pop("member")["user"]
    for key in ("guild_id", "guild", "guild_locale"):
        payload.pop(key, None)
    payload.update(user=user, channel_id=str(channel), channel={"id": str(channel), "type": 1}, context=1)
    h.fake._channel_of[payload["token"]] = channel
    return payload


async def send(h, payload: dict) -> list[dict]:
    """Dispatch ``payload`` as the gateway would; the messages sent meanwhile (without the empty "thinking…"
    placeholder a deferred reply leaves in the fake)."""
    before = len(h.fake.messages)
    h.bot._connection.parse_interaction_create(payload)
    await h.settle()
    return [m for m in list(h.fake.messages.values())[before:]
            if m["content"] or m["embeds"] or m["attachments"] or m["components"]]


def message_with(h, channel_id: int, custom_id: str, *, select: bool = False) -> dict:
    """A recorded bot message carrying one control with ``custom_id`` (a select when ``select``): what a
    damaged, hand-made or very old control looks like to the bot."""
    item = ({"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "0"}]} if select
            else {"type": 2, "style": 2, "label": "x", "custom_id": custom_id})
    message = h.fake._message(channel_id, {"content": "old", "components": [{"type": 1, "components": [item]}]}, {})
    assert components(message)
    return message
