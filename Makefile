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

lint: $(STAMP)
	$(PY) -m ruff check .

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

# The real image, built and run against the loopback fake Discord until its HEALTHCHECK says healthy and it
# answers a slash command (tests/docker_smoke.py). Without a working Docker engine it says so and succeeds:
# tests/test_docker_image.py (part of make test) checks the image's file tree without Docker.
docker-test: $(STAMP)
	@if docker info >/dev/null 2>&1; then \
		docker build -t gamehost:test . && $(PY) -m tests.docker_smoke gamehost:test; \
	else \
		echo "docker-test: SKIPPED, no working Docker engine here (docker info fails)."; \
		echo "docker-test: the image's tree was checked without Docker by tests/test_docker_image.py (make test)."; \
	fi

clean:
	rm -rf $(VENV) demo var .pytest_cache
