"""``make docker-test``: the real image, built by Docker and run against the loopback fake Discord.

1. **build**: ``docker build --network host`` of the Dockerfile, unchanged (the base image must be in the engine:
   ``.ci/docker-base`` pulls it or builds the stand-in), and the image's configuration as Docker reports it:
   ``OPS_HOST=0.0.0.0`` (so a published port reaches /healthz and /metrics), ``HEALTH_PORT=8080``, the database on
   the ``/data`` volume, a non-root user, the HEALTHCHECK and CMD.
2. **image**: ``docker run`` of the image until Docker's own HEALTHCHECK reports it healthy; it answers
   ``/<game> new`` with a lobby and a **Join** click, keeps its database in ``/data`` as the non-root user, and
   ``docker stop`` ends it cleanly (exit 0, well before Docker's SIGKILL).
3. **compose**: docker-compose.yml's one-process set-up, as an admin starts it (``up -d --build`` with a ``.env``
   holding the token), plus tests/docker-compose.smoke.yml (the host's network, the launcher below, quick health
   checks): healthy, a lobby opened; ``down`` and ``up`` again: the lobby is still there (a click joins it), so
   the database lived on the named volume. Everything is removed at the end (``down -v --rmi local``).

The container shares the host's network (``--network host``; no bridge network is created) to reach the fake
Discord on 127.0.0.1; the bot's ops port listens on 127.0.0.1 there (the image's ``0.0.0.0`` would open it on
every address of the host). Each phase prints how long it took.

Usage: python -m tests.docker_smoke [--tag gamehost:test] [--no-build]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.fake_server import FakeDiscordServer, RemoteBot

ROOT = Path(__file__).resolve().parent.parent
OVERRIDE = ROOT / "tests" / "docker-compose.smoke.yml"
ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222
GAME = "hector-achilles"

#: ``python bot.py`` as the image's CMD runs it, with discord.py's two addresses pointed at the fake Discord (as
#: tests/run_bot.py does; nothing of tests/ is in the image). One line: compose passes it through an environment
#: variable.
LAUNCHER = (
    "import os, runpy, sys, discord.gateway, discord.http, yarl; "
    "discord.http.Route.BASE = os.environ['FAKE_DISCORD_API']; "
    "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ['FAKE_DISCORD_GATEWAY']); "
    "sys.argv = ['bot.py']; runpy.run_path('bot.py', run_name='__main__')"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- the player's side: the one place the smoke tests spell the commands -------------------------------------


async def open_lobby(remote: RemoteBot, user_id: int, game: str, name: str) -> dict:
    """``/<game> new`` of ``game`` by ``user_id``: the lobby message it opens in its new thread.
    (The command's shape lives here only: a change of the command structure is made in this function.)"""
    before = {cid for cid, c in remote.fake.channels.items() if c["type"] == 11}
    await remote.slash(user_id, f"{game} new", name=name)
    threads = [cid for cid, c in remote.fake.channels.items() if c["type"] == 11 and cid not in before]
    assert len(threads) == 1, f"/{game} new opened {len(threads)} threads"
    messages = remote.messages_in(threads[0])
    assert messages, f"/{game} new opened a thread with no lobby in it"
    return messages[0]


def contract_kept(server: FakeDiscordServer) -> None:
    """Every request the container sent was one Discord would accept (tests/discord/contract.py)."""
    bad = server.fake.contract.violations
    assert not bad, "the bot sent requests Discord would refuse:\n" + "\n".join(str(v) for v in bad)


async def join(remote: RemoteBot, user_id: int, lobby: dict, name: str) -> str:
    """A **Join** click on ``lobby`` (as it is now): what the bot said about it in the thread."""
    lobby = remote.fake.messages[int(lobby["id"])]
    button = next(c for row in lobby["components"] for c in row["components"] if c.get("label") == "Join")
    seen = set(remote.fake.messages)
    await remote.click(user_id, lobby, button["custom_id"], name=name)
    said = [m.get("content", "") for mid, m in remote.fake.messages.items()
            if mid not in seen and m["channel_id"] == lobby["channel_id"]]
    return "\n".join(said)


def game_number(lobby: dict) -> str:
    """The game's number, from the lobby's title ("Hector and Achilles — game #12")."""
    title = lobby["embeds"][0]["title"]
    return title.rsplit("#", 1)[1]


# -- Docker ------------------------------------------------------------------------------------------------------


def docker(*args: str, check: bool = True, env: dict | None = None, timeout: float = 600) -> str:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, env=env, timeout=timeout)
    if check and done.returncode != 0:
        raise SystemExit(f"docker {' '.join(args[:3])} failed:\n{done.stdout}{done.stderr}")
    return done.stdout.strip()


def compose_command() -> list[str]:
    """The compose plugin (``docker compose``) where it is installed, else Debian's ``docker-compose``."""
    plugin = subprocess.run(["docker", "compose", "version"], capture_output=True, text=True)
    if plugin.returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    raise SystemExit("docker-test: neither the compose plugin nor docker-compose is installed "
                     "(apt-get install docker-compose)")


def say(text: str) -> None:
    print(f"docker-test: {text}", flush=True)


class Timer:
    def __init__(self) -> None:
        self.start = time.monotonic()

    def __str__(self) -> str:
        return f"{time.monotonic() - self.start:.1f} s"


def build(tag: str) -> None:
    timer = Timer()
    done = subprocess.run(["docker", "build", "--network", "host", "-t", tag, str(ROOT)],
                          capture_output=True, text=True, timeout=1200)
    if done.returncode != 0:
        raise SystemExit(f"docker build failed:\n{done.stdout[-6000:]}{done.stderr[-6000:]}")
    say(f"built {tag} in {timer}")


def check_config(tag: str) -> None:
    """The image as Docker will run it (the Dockerfile's settings, read back from the built image)."""
    config = json.loads(docker("image", "inspect", "-f", "{{json .Config}}", tag))
    env = dict(item.split("=", 1) for item in config["Env"])
    wanted = {"OPS_HOST": "0.0.0.0", "HEALTH_PORT": "8080", "DATABASE_PATH": "/data/gamehost.db"}
    wrong = {k: env.get(k) for k, v in wanted.items() if env.get(k) != v}
    assert not wrong, f"the image's environment is not what the README promises: {wrong}"
    assert config["User"] == "gamehost", config["User"]
    assert list(config["Volumes"] or {}) == ["/data"], config["Volumes"]
    assert config["Healthcheck"]["Test"] == ["CMD", "python", "bot.py", "healthcheck"], config["Healthcheck"]
    assert config["Cmd"] == ["python", "bot.py"], config["Cmd"]
    base = (config.get("Labels") or {}).get("gamehost.standin-base")
    say("image configuration as documented (OPS_HOST=0.0.0.0, HEALTH_PORT=8080, /data, user gamehost); base: "
        + (f"the stand-in ({base})" if base else "the official python image"))


async def wait_healthy(container: str, timeout: float = 120) -> float:
    """Seconds until Docker's HEALTHCHECK reports the container healthy."""
    timer = Timer()
    deadline = time.monotonic() + timeout
    while True:
        state = json.loads(docker("inspect", "-f", "{{json .State}}", container))
        health = state.get("Health") or {}
        if health.get("Status") == "healthy":
            last = health["Log"][-1]
            assert last["ExitCode"] == 0 and last["Output"].strip() == "ready", last
            return time.monotonic() - timer.start
        if not state["Running"] or health.get("Status") == "unhealthy" or time.monotonic() > deadline:
            print(logs(container)[-6000:], file=sys.stderr)
            raise SystemExit(f"the container did not become healthy: {state.get('Status')}, health {health}")
        await asyncio.sleep(0.5)


def logs(container: str) -> str:
    done = subprocess.run(["docker", "logs", container], capture_output=True, text=True)
    return done.stdout + done.stderr


def assert_clean_log(container: str) -> None:
    text = logs(container)
    assert "Traceback" not in text and "ERROR" not in text, text[-6000:]


async def run_image(tag: str) -> None:
    server = await FakeDiscordServer().start()
    name = f"gamehost-docker-test-{os.getpid()}"
    env = {"DISCORD_TOKEN": "fake-token", "HEALTH_PORT": str(free_port()), "OPS_HOST": "127.0.0.1",
           "FAKE_DISCORD_API": server.api_url, "FAKE_DISCORD_GATEWAY": server.gateway_url}
    flags = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
    try:
        timer = Timer()
        docker("run", "-d", "--name", name, "--network", "host", "--health-interval=1s",
               "--health-start-period=0s", *flags, tag, "python", "-c", LAUNCHER)
        took = await wait_healthy(name)
        say(f"docker run: healthy after {took:.1f} s (HEALTHCHECK every 1 s here)")
        remote = RemoteBot(server)
        lobby = await open_lobby(remote, ANN, GAME, "Ann")
        said = await join(remote, BOB, lobby, "Bob")
        assert f"Bob joined game #{game_number(lobby)}" in said, f"the Join click was answered with {said!r}"
        say("docker run: answered /hector-achilles new with a lobby and a Join click")
        # the database is on the volume, written by the image's non-root user
        owner = docker("exec", name, "stat", "-c", "%U %s", "/data/gamehost.db")
        assert owner.startswith("gamehost "), owner
        stopping = Timer()
        docker("stop", "-t", "30", name)
        code = docker("inspect", "-f", "{{.State.ExitCode}}", name)
        assert code == "0", f"docker stop: the bot exited with {code}"
        text = logs(name)
        assert "stopped" in text.splitlines()[-1], text[-3000:]
        assert_clean_log(name)
        contract_kept(server)
        say(f"docker run: /data/gamehost.db owned by gamehost; docker stop ended it cleanly in {stopping} "
            f"(exit 0); {timer} in all")
    finally:
        docker("rm", "-f", "-v", name, check=False)  # -v: and its anonymous /data volume
        await server.stop()


class Compose:
    """docker-compose.yml plus the smoke override, as one project with a name of its own."""

    def __init__(self, server: FakeDiscordServer, env_file: Path) -> None:
        self.project = f"gamehost-smoke-{os.getpid()}"
        self.tool = compose_command()
        self.base = self.tool + ["--env-file", str(env_file), "-p", self.project,
                                         "-f", str(ROOT / "docker-compose.yml"), "-f", str(OVERRIDE)]
        # only what compose needs from this process: a developer's own DISCORD_TOKEN never reaches it
        self.env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME") or k.startswith("DOCKER_")}
        self.env.update(FAKE_DISCORD_API=server.api_url, FAKE_DISCORD_GATEWAY=server.gateway_url,
                        SMOKE_HEALTH_PORT=str(free_port()), GAMEHOST_LAUNCHER=LAUNCHER)

    def __call__(self, *args: str, check: bool = True) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, env=self.env, cwd=ROOT,
                              timeout=1200)
        if check and done.returncode != 0:
            raise SystemExit(f"{' '.join(self.tool)} {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
        return done.stdout.strip()

    def container(self) -> str:
        ids = self("ps", "-q", "gamehost").split()
        assert len(ids) == 1, f"compose runs {len(ids)} gamehost containers"
        return ids[0]

    def volume(self) -> str | None:
        names = docker("volume", "ls", "-q", "--filter", f"name={self.project}").split()
        return next((n for n in names if n.endswith("gamehost-data")), None)


async def run_compose() -> None:
    server = await FakeDiscordServer().start()
    with tempfile.TemporaryDirectory() as tmp:
        env_file = Path(tmp) / ".env"
        env_file.write_text("DISCORD_TOKEN=fake-token\n")  # what an admin's .env holds
        compose = Compose(server, env_file)
        say(f"compose: {' '.join(compose.tool)} {compose('version', '--short')}")
        try:
            timer = Timer()
            compose("up", "-d", "--build")
            took = await wait_healthy(compose.container())
            say(f"compose up -d --build: healthy after {timer} ({took:.1f} s after the container started)")
            remote = RemoteBot(server)
            lobby = await open_lobby(remote, ANN, GAME, "Ann")
            volume = compose.volume()
            assert volume, "compose made no gamehost-data volume"

            timer = Timer()
            compose("down")
            assert compose.volume() == volume, "compose down removed the named volume"
            compose("up", "-d")
            took = await wait_healthy(compose.container())
            said = await join(remote, BOB, lobby, "Bob")
            assert f"Bob joined game #{game_number(lobby)}" in said, \
                f"after down/up the lobby made before was answered with {said!r}"
            assert_clean_log(compose.container())
            contract_kept(server)
            say(f"compose down / up -d: healthy again after {timer}; the lobby opened before the down took a Join "
                f"click (volume {volume} kept the database)")
        finally:
            compose("down", "-v", "--rmi", "local", "--timeout", "30", check=False)
            await server.stop()
    assert compose.volume() is None, "compose down -v left the volume"


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tag", default="gamehost:test")
    parser.add_argument("--no-build", action="store_true", help="use the image already tagged --tag")
    args = parser.parse_args(argv)
    timer = Timer()
    if not args.no_build:
        build(args.tag)
    check_config(args.tag)
    await run_image(args.tag)
    await run_compose()
    say(f"passed in {timer}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
