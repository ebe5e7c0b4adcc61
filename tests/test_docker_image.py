"""The Docker image, without Docker: the image's file tree is laid out exactly as the Dockerfile's COPY/ADD
lines copy the build context (honouring .dockerignore), installed into a fresh venv with the Dockerfile's own
``RUN pip install`` line, and ``python bot.py`` is started from it against the loopback fake Discord until it
answers a slash command and a click; the HEALTHCHECK command must say "not ready" before and "ready" after.
This runs everywhere, in ``make test``; ``make docker-test`` (tests/docker_smoke.py, run by CI's ``.ci/run``)
builds and runs the real image and docker-compose.yml with Docker itself."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest

from tests.docker_smoke import ANN, BOB, GAME, LAUNCHER, free_port, game_number, join, open_lobby
from tests.fake_server import FakeDiscordServer, RemoteBot

ROOT = Path(__file__).resolve().parent.parent

# -- the Dockerfile, read as Docker reads it -----------------------------------------------------------------


@dataclass
class Image:
    workdir: str = "/"
    copies: list[tuple[list[str], str, str]] = field(default_factory=list)  # (sources, destination, workdir)
    env: dict[str, str] = field(default_factory=dict)
    runs: list[str] = field(default_factory=list)
    cmd: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with comments dropped and backslash continuations joined."""
    out, pending = [], ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if pending and line.lstrip().startswith("#"):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        word, _, rest = whole.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def _args(rest: str) -> list[str]:
    return json.loads(rest) if rest.startswith("[") else shlex.split(rest)


def parse_dockerfile(text: str) -> Image:
    image = Image()
    for word, rest in instructions(text):
        if word == "WORKDIR":
            image.workdir = str(PurePosixPath(image.workdir) / rest)
        elif word in ("COPY", "ADD"):
            parts = [p for p in _args(rest) if not p.startswith("--")]
            if any(p.startswith("--from") for p in _args(rest)):
                raise AssertionError("multi-stage COPY --from is not laid out by this test")
            image.copies.append((parts[:-1], parts[-1], image.workdir))
        elif word == "ENV":
            for item in shlex.split(rest):
                key, _, value = item.partition("=")
                image.env[key] = value
        elif word == "RUN":
            image.runs.append(rest)
        elif word == "CMD":
            image.cmd = _args(rest)
        elif word == "HEALTHCHECK":
            image.healthcheck = _args(rest[rest.index("CMD") + 3:].strip())
    return image


def _pattern(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern (Go filepath.Match plus ``**``) as a regex on context-relative POSIX paths."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def dockerignore(text: str):
    """``ignored(path)``: whether Docker leaves a context path out (a path is out when it or a parent matches
    the last matching rule, and ``!`` rules bring paths back)."""
    rules = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        rules.append((keep, _pattern(str(PurePosixPath(line.lstrip("!").strip("/"))))))

    def ignored(path: str) -> bool:
        parts = path.split("/")
        prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
        out = False
        for keep, rx in rules:
            if any(rx.match(p) for p in prefixes):
                out = not keep
        return out

    return ignored


def lay_out(context: Path, dockerfile: str, ignore_text: str, root: Path) -> Image:
    """Copy what the Dockerfile's COPY/ADD lines copy from ``context`` into ``root`` (the image's ``/``)."""
    image = parse_dockerfile(dockerfile)
    ignored = dockerignore(ignore_text)
    for sources, dest, workdir in image.copies:
        target = PurePosixPath(workdir) / dest
        for source in sources:
            src = (context / source).resolve()
            assert src == context or context in src.parents, f"COPY {source} leaves the build context"
            into = root / str(target).lstrip("/")
            if src.is_dir():
                for path in sorted(src.rglob("*")):
                    rel = path.relative_to(context).as_posix()
                    if path.is_file() and not ignored(rel):
                        out = into / path.relative_to(src)
                        out.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(path, out)
            elif not ignored(src.relative_to(context).as_posix()):
                out = into / src.name if dest.endswith(("/", ".")) or len(sources) > 1 else into
                out.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, out)
    return image


def declared_modules(pyproject: dict) -> list[str]:
    """The top-level packages and modules pyproject.toml installs (``packages.find`` include, ``py-modules``)."""
    tool = pyproject["tool"]["setuptools"]
    packages = [p.rstrip("*") for p in tool["packages"]["find"]["include"] if "." not in p.rstrip("*")]
    return packages + list(tool.get("py-modules", []))


def missing(app: Path, modules: list[str]) -> list[str]:
    return [m for m in modules if not ((app / m / "__init__.py").is_file() or (app / f"{m}.py").is_file())]


# -- fast checks of the tree (no install) ---------------------------------------------------------------------


def _real_image(tmp_path: Path) -> tuple[Image, Path]:
    image = lay_out(ROOT, (ROOT / "Dockerfile").read_text(), (ROOT / ".dockerignore").read_text(), tmp_path)
    return image, tmp_path / image.workdir.lstrip("/")


def test_image_tree_holds_every_declared_package_and_the_data(tmp_path):
    image, app = _real_image(tmp_path)
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert not missing(app, declared_modules(pyproject))
    assert (app / "pyproject.toml").is_file() and (app / "README.md").is_file()
    for kind in ("fonts", "locales", "rules", "troja", "kivalasztottak", "ave_caesar", "hextri", "hector_achilles"):
        wanted = {p.relative_to(ROOT) for p in (ROOT / "data" / kind).rglob("*") if p.is_file()}
        assert wanted and wanted == {p.relative_to(app) for p in (app / "data" / kind).rglob("*") if p.is_file()}
    # what must stay out: the token file, the local database, caches, the tests
    for path in (".env", "var", ".git", ".venv", "tests"):
        assert not (app / path).exists(), path
    assert not list(app.rglob("__pycache__"))
    assert image.cmd == ["python", "bot.py"] and image.healthcheck == ["python", "bot.py", "healthcheck"]
    # the ops endpoints on every address of the container (a published port reaches them), /healthz on 8080
    # where the HEALTHCHECK asks, the database on the volume
    assert image.env["OPS_HOST"] == "0.0.0.0" and image.env["HEALTH_PORT"] == "8080"
    assert image.env["DATABASE_PATH"] == "/data/gamehost.db"


def test_the_layout_catches_a_dockerfile_that_forgets_a_package(tmp_path):
    """The check that would have caught issue 12: the old Dockerfile's COPY lines, without tournaments/."""
    old = "WORKDIR /app\nCOPY pyproject.toml README.md ./\nCOPY bot.py settings.py ./\n" + "".join(
        f"COPY {p} ./{p}\n" for p in ("engines", "host", "cogs", "render", "store", "ai", "data"))
    image = lay_out(ROOT, old, "**/__pycache__\n", tmp_path)
    app = tmp_path / "app"
    assert image.workdir == "/app" and (app / "engines" / "__init__.py").is_file()
    # that Dockerfile predates tournaments/ and web/ (issue 28): both are missed
    assert missing(app, declared_modules(tomllib.loads((ROOT / "pyproject.toml").read_text()))) == ["tournaments",
                                                                                                     "web"]


def test_dockerignore_rules():
    ignored = dockerignore("var\n**/__pycache__\n*.egg-info\ndocs\n!docs/keep.md\n")
    assert ignored("var") and ignored("var/gamehost.db")
    assert ignored("__pycache__/x.pyc") and ignored("engines/troja/__pycache__/cards.cpython-311.pyc")
    assert ignored("gamehost.egg-info/PKG-INFO") and not ignored("engines/x.egg-info.py")
    assert ignored("docs/troja.md") and not ignored("docs/keep.md")
    assert not ignored("variants.py") and not ignored("data/var/x")


# -- the laid-out image, installed and started ----------------------------------------------------------------

class HeldGateway(FakeDiscordServer):
    """The fake Discord whose gateway waits for ``release`` before it answers the bot's IDENTIFY."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.identifying = asyncio.Event()

    async def dispatch(self, event: str, data: dict) -> None:
        if event == "READY":
            self.identifying.set()
            await self.release.wait()
        await super().dispatch(event, data)


def install(app: Path, image: Image, venv: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    installs = [r for r in image.runs if r.startswith("pip install")]
    assert installs, "the Dockerfile installs nothing with pip"
    for run in installs:
        # the image's own pip line; --no-cache-dir only keeps the image small, pip's cache keeps this test fast
        args = [a for a in shlex.split(run)[2:] if a != "--no-cache-dir"]
        done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", *args], cwd=app,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return python


async def healthy(python: Path, app: Path, env: dict) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(str(python), "bot.py", "healthcheck", cwd=app, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await proc.communicate()
    return proc.returncode, out.decode()


@pytest.mark.e2e
async def test_laid_out_image_installs_starts_and_answers(tmp_path):
    image, app = _real_image(tmp_path / "image")
    python = install(app, image, tmp_path / "venv")

    # the installed packages are the laid-out ones, with their data, from any working directory
    probe = subprocess.run([str(python), "-c", "import tournaments, host.locale as l; print(tournaments.__file__);"
                            " print(l.t('error_generic', 'hu'))"], cwd=tmp_path, capture_output=True, text=True)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines()[0].startswith(str(app))

    server = await HeldGateway().start()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "CRASH_AT"))}
    env.update(image.env)
    env.update(DISCORD_TOKEN="fake-token", DATABASE_PATH=str(tmp_path / "data" / "gamehost.db"),
               HEALTH_PORT=str(port), OPS_HOST="127.0.0.1", RENDER_PROCESSES="0",
               FAKE_DISCORD_API=server.api_url, FAKE_DISCORD_GATEWAY=server.gateway_url)
    (tmp_path / "data").mkdir()
    log = tmp_path / "bot.log"
    with open(log, "wb") as handle:
        proc = await asyncio.create_subprocess_exec(str(python), "-c", LAUNCHER, cwd=app, env=env,
                                                    stdout=handle, stderr=asyncio.subprocess.STDOUT)
    try:
        await asyncio.wait_for(server.identifying.wait(), 30)
        code, said = await healthy(python, app, env)  # logged in, store open, gateway not READY yet
        assert code == 1 and "not ready" in said, said
        server.release.set()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while (code := (await healthy(python, app, env))[0]) != 0:
            assert proc.returncode is None and loop.time() < deadline, log.read_text(errors="replace")[-3000:]
            await asyncio.sleep(0.2)

        remote = RemoteBot(server)
        lobby = await open_lobby(remote, ANN, GAME, "Ann")
        said = await join(remote, BOB, lobby, "Bob")
        assert f"Bob joined game #{game_number(lobby)}" in said, f"the Join click was answered with {said!r}"
        assert (tmp_path / "data" / "gamehost.db").is_file()
        text = log.read_text(errors="replace")
        assert "Traceback" not in text, text[-4000:]
    finally:
        if proc.returncode is None:
            proc.terminate()
            await proc.wait()
        await server.stop()
