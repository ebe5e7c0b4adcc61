# Every target creates .venv and installs the project (with pinned versions) when needed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint demo bench clean docker-test

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) bot.py

test: $(STAMP)
	$(PY) -m pytest -q

# ruff, then mypy over the whole package tree ([tool.mypy] in pyproject.toml says which folders and how strictly)
lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy

demo: $(STAMP)
	$(PY) -m bench.demo

bench: $(STAMP)
	$(PY) -m bench.concurrency
	$(PY) -m bench.memory
	$(PY) -m bench.arena
	$(PY) -m bench.pipeline
	$(PY) -m bench.storage
	$(PY) -m bench.backends
	$(PY) -m bench.tournaments
	$(PY) -m bench.engines
	$(PY) -m bench.thread

# The real image, built by Docker and run against the loopback fake Discord (tests/docker_smoke.py): docker run
# until its HEALTHCHECK says healthy and it answers /game new and a click, then docker-compose.yml's set-up with
# its volume surviving a down/up. .ci/docker-base first makes the Dockerfile's base image available (pulled, or
# a stand-in built from Debian's packages where no registry is reachable). Without a working Docker engine it
# says so and succeeds, unless DOCKER_TEST_REQUIRED=1 (.ci/run, which starts an engine, sets it).
docker-test: $(STAMP)
	@if docker info >/dev/null 2>&1; then \
		.ci/docker-base && $(PY) -m tests.docker_smoke; \
	elif [ -n "$(DOCKER_TEST_REQUIRED)" ]; then \
		echo "docker-test: FAILED, no working Docker engine here (docker info fails)."; exit 1; \
	else \
		echo "docker-test: SKIPPED, no working Docker engine here (docker info fails)."; \
		echo "docker-test: the image's tree was checked without Docker by tests/test_docker_image.py (make test)."; \
	fi

clean:
	rm -rf $(VENV) demo var .pytest_cache
