"""The two docker-compose deployments, read without Docker (there may be no engine to run them): one process on
SQLite (docker-compose.yml) and shard processes on PostgreSQL (docker-compose.shards.yml). Every service's
environment, interpolated from a sample .env the way compose does, must be accepted by settings.py and use only
variables settings.py reads; the shard processes must cover every shard exactly once, all on the one PostgreSQL
service, whose data lives on a volume."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from host.shards import Shards
from settings import Settings

ROOT = Path(__file__).resolve().parents[1]
ENV = {"DISCORD_TOKEN": "token", "POSTGRES_PASSWORD": "secret42"}
_VAR = re.compile(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}")


def interpolate(value, env: dict[str, str]):
    """compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?error}``."""
    if not isinstance(value, str):
        return value

    def one(m: re.Match) -> str:
        name, op, arg = m.group(1), m.group(2), m.group(3)
        if env.get(name):
            return env[name]
        if op == ":?":
            raise KeyError(f"{name}: {arg}")
        return arg if op == ":-" else ""
    return _VAR.sub(one, value)


def load(name: str) -> dict:
    return yaml.safe_load((ROOT / name).read_text())


def environment(service: dict, env: dict[str, str] = ENV) -> dict[str, str]:
    return {k: str(interpolate(v, env)) for k, v in (service.get("environment") or {}).items()}


SETTINGS_SOURCE = (ROOT / "settings.py").read_text()


def bot_services(compose: dict) -> dict[str, dict]:
    return {name: s for name, s in compose["services"].items() if s.get("build") == "."}


def check_bot_environment(env: dict[str, str]) -> Settings:
    unknown = [k for k in env if f'"{k}"' not in SETTINGS_SOURCE]
    assert not unknown, f"settings.py does not read {unknown}"
    settings = Settings.from_env(env)  # SystemExit on a value it refuses
    assert settings.token == "token" and settings.health_port == 8080  # the image's HEALTHCHECK asks 8080
    return settings


def test_one_process_with_sqlite_on_a_volume():
    compose = load("docker-compose.yml")
    (name, service), = bot_services(compose).items()
    settings = check_bot_environment(environment(service))
    assert settings.database_url is None and settings.shard_count is None
    mounts = dict(v.split(":", 1)[::-1] for v in service["volumes"])
    folder = str(Path(settings.database_path).parent)
    assert folder in mounts and mounts[folder] in compose["volumes"], "the SQLite file is not on a named volume"
    with pytest.raises(KeyError, match="DISCORD_TOKEN"):
        environment(service, {})


def test_shard_processes_on_one_postgresql():
    compose = load("docker-compose.shards.yml")
    services = compose["services"]
    postgres = services["postgres"]
    pg_env = environment(postgres)
    assert "pg_isready" in postgres["healthcheck"]["test"]
    data = {v.split(":", 1)[1]: v.split(":", 1)[0] for v in postgres["volumes"]}
    assert data.get("/var/lib/postgresql/data") in compose["volumes"], "PostgreSQL's data is not on a volume"

    bots = bot_services(compose)
    assert len(bots) >= 2
    counts, owned, urls = set(), [], set()
    for name, service in bots.items():
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy", name
        settings = check_bot_environment(environment(service))
        assert settings.shard_count and settings.shard_ids is not None, f"{name} runs no shard range"
        counts.add(settings.shard_count)
        owned += Shards(settings.shard_ids, settings.shard_count).ids
        urls.add(settings.database_url)
    assert len(counts) == 1, f"the processes disagree on SHARD_COUNT: {counts}"
    assert sorted(owned) == list(range(counts.pop())), "every shard must run in exactly one process"
    url, = urls
    assert url == (f"postgresql://{pg_env['POSTGRES_USER']}:{ENV['POSTGRES_PASSWORD']}@postgres:5432/"
                   f"{pg_env['POSTGRES_DB']}")
    with pytest.raises(KeyError, match="POSTGRES_PASSWORD"):
        environment(next(iter(bots.values())), {"DISCORD_TOKEN": "token"})


def test_the_readme_shows_both_deployments():
    readme = (ROOT / "README.md").read_text()
    assert "docker compose up -d --build" in readme
    assert "docker compose -f docker-compose.shards.yml up -d --build" in readme


def test_the_smoke_override_leaves_the_admins_set_up_alone():
    """``make docker-test`` runs docker-compose.yml as an admin does, plus tests/docker-compose.smoke.yml: the
    override only reaches the loopback fake Discord and checks health faster; the volume, the database path, the
    restart policy and the token come from the admin's file, which has nothing of the test in it."""
    compose = load("docker-compose.yml")
    base = compose["services"]["gamehost"]
    override = load("tests/docker-compose.smoke.yml")["services"]["gamehost"]
    assert set(override) <= {"build", "network_mode", "command", "environment", "healthcheck"}, set(override)
    assert set(override["environment"]) <= {"FAKE_DISCORD_API", "FAKE_DISCORD_GATEWAY", "HEALTH_PORT", "OPS_HOST"}
    assert override["build"]["context"] == base["build"] == "."
    assert set(override["healthcheck"]) <= {"interval", "start_period"}, "the image's own check must run"
    text = (ROOT / "docker-compose.yml").read_text()
    assert "FAKE_DISCORD" not in text and "network_mode" not in base and "command" not in base
