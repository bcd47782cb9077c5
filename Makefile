# The project's own virtualenv; every target creates or refreshes it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help serve demo system test test-fast bench crosscheck clean

NATIVE := native/CMakeLists.txt $(wildcard native/src/*)

WORKERS ?= auto
PARALLEL := -n $(WORKERS) --dist loadgroup --no-loadscope-reorder

# Compiled bytecode is kept (in .venv/pycache, out of the tree) even where the machine says not to write
# it: each test worker and each server or command a test starts would otherwise compile every module,
# and pytest rewrite every test's asserts, again (about half of the suite's start-up time).
export PYTHONDONTWRITEBYTECODE :=
export PYTHONPYCACHEPREFIX := $(abspath $(VENV))/pycache

$(STAMP): pyproject.toml $(NATIVE)  ## the package is rebuilt (its compiled core too) when these change
	bash scripts/install-compiler.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,rl,ray,train]'
	touch $(STAMP)

serve: $(STAMP)  ## the main job: the web card room on http://127.0.0.1:8000, SQLite in ./data
	$(BIN)/cardroom serve --data data

demo: $(STAMP)  ## a seeded deal and every legal lead of one hand, in the terminal
	$(BIN)/cardroom demo --seed 1

system:  ## what the tests need beyond Python, from Debian's packages: chromium and PostgreSQL
	bash scripts/install-browser.sh
	bash scripts/install-postgres.sh

LINT := $(BIN)/ruff check src tests bench && $(BIN)/ruff format --check src tests bench && $(BIN)/mypy
LINT_LOG := $(VENV)/lint.log

# ruff and mypy run beside the tests at the lowest priority, on the cores the tests leave idle (those
# waiting on a server, a clock or chromium), and say what they found after the tests' summary.
test: $(STAMP) system  ## every test, on every core (WORKERS=n to choose; compiled core, browser and PostgreSQL required), with ruff and mypy beside them
	@echo "nice -n 19 sh -c '$(LINT)' > $(LINT_LOG) &"
	@nice -n 19 sh -c '$(LINT)' > $(LINT_LOG) 2>&1 & lint=$$!; trap 'pkill -P $$lint 2>/dev/null; kill $$lint' INT TERM; \
	CARDROOM_REQUIRE_NATIVE=1 CARDROOM_REQUIRE_BROWSER=1 CARDROOM_REQUIRE_POSTGRES=1 $(BIN)/pytest $(PARALLEL); \
	tests=$$?; wait $$lint; linted=$$?; \
	echo "--- ruff check, ruff format --check, mypy (each runs once the one before passed):"; cat $(LINT_LOG); \
	test $$tests -eq 0 || echo "make test: pytest failed (exit status $$tests; its summary is above)"; \
	test $$linted -eq 0 || echo "make test: ruff or mypy failed (their output is above)"; \
	test $$tests -eq 0 && test $$linted -eq 0

test-fast: $(STAMP)  ## a few minutes: every test but the slow soak runs, the browser ones and those that start a server, on every core
	$(BIN)/pytest $(PARALLEL) -m "not slow and not browser and not server_process"

crosscheck: $(STAMP)  ## the full native-against-pure sweep of docs/performance.md (hours; RULES=competition runs one rule set's share)
	CARDROOM_REQUIRE_NATIVE=1 CARDROOM_NATIVE_POSITIONS=200000 CARDROOM_NATIVE_DEALS=10000 \
		$(BIN)/pytest -q --durations=0 tests/guandan/test_native.py $(if $(RULES),-k "$(RULES)")

bench: $(STAMP)  ## the performance benchmarks recorded in docs/performance.md (OPENGUANDAN=DIR: OpenGuanDan's guandan-java folder, for bench.rl)
	$(BIN)/python -m bench.moves
	$(BIN)/python -m bench.play
	$(BIN)/python -m bench.bots
	$(BIN)/python -m bench.planning
	$(BIN)/python -m bench.rl $(if $(OPENGUANDAN),--openguandan $(OPENGUANDAN))
	$(BIN)/python -m bench.dmc
	$(BIN)/python -m bench.competition
	$(BIN)/python -m bench.openguandan
	$(BIN)/python -m bench.shengji
	$(BIN)/python -m bench.room_load
	$(BIN)/python -m bench.ladder
	$(BIN)/python -m bench.ladder_room

help:  ## this list
	@grep -E '^[a-z.-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:[^#]*## /\t/' | expand -t 12

clean:  ## remove the virtualenv, the build and the tools' caches
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis
