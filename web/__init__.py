"""The web companion: read-only pages of a server's games, replays, tournaments and players (aiohttp, Jinja2
templates, server-sent events). A second front end over host/ and store/, a sibling of cogs/: it runs in the
bot's process (``WEB_PORT``) or on its own (``python bot.py web``) over the same database."""
