"""``make docker-test``: run the real image (built by the Makefile) against the loopback fake Discord until
Docker's own HEALTHCHECK reports it healthy, then check that it answers a slash command. Needs a Docker engine
on Linux (the container shares the host's network to reach the fake Discord on 127.0.0.1).

Usage: python -m tests.docker_smoke <image>
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

from tests.fake_server import FakeDiscordServer, RemoteBot
from tests.test_docker_image import ANN, LAUNCHER, free_port


def docker(*args: str, check: bool = True) -> str:
    done = subprocess.run(["docker", *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise SystemExit(f"docker {' '.join(args[:2])} failed:\n{done.stdout}{done.stderr}")
    return done.stdout.strip()


async def main(image: str) -> int:
    server = await FakeDiscordServer().start()
    name = f"gamehost-docker-test-{int(time.time())}"
    env = {"DISCORD_TOKEN": "fake-token", "HEALTH_PORT": str(free_port()), "OPS_HOST": "127.0.0.1",
           "FAKE_DISCORD_API": server.api_url, "FAKE_DISCORD_GATEWAY": server.gateway_url}
    flags = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
    # the image's own CMD is "python bot.py"; the launcher only points discord.py at the fake Discord
    docker("run", "-d", "--rm", "--name", name, "--network", "host", "--health-interval=1s",
           "--health-start-period=0s", *flags, image, "python", "-c", LAUNCHER)
    try:
        deadline = time.monotonic() + 90
        while (health := docker("inspect", "-f", "{{.State.Health.Status}}", name)) != "healthy":
            if time.monotonic() > deadline or health == "unhealthy":
                print(docker("logs", name, check=False), file=sys.stderr)
                raise SystemExit(f"the container did not become healthy (health: {health})")
            await asyncio.sleep(1)
        print("docker-test: the container is healthy")
        remote = RemoteBot(server)
        await remote.slash(ANN, "hector-achilles new", name="Ann")
        threads = [c for c in server.fake.channels.values() if c["type"] == 11]
        if not threads or not remote.messages_in(int(threads[-1]["id"])):
            print(docker("logs", name, check=False), file=sys.stderr)
            raise SystemExit("the container did not answer /hector-achilles new")
        if server.fake.contract.violations:  # every request held to Discord's contract (tests/discord/)
            raise SystemExit("the container sent requests Discord would refuse:\n"
                             + "\n".join(str(v) for v in server.fake.contract.violations))
        print("docker-test: the container answered /hector-achilles new with a lobby; passed")
        return 0
    finally:
        docker("rm", "-f", name, check=False)
        await server.stop()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "gamehost:test")))
