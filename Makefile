# The project's own virtualenv; every target creates or refreshes it first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)  ## the main job: a seeded deal and every legal lead of one hand
	$(BIN)/cardroom demo --seed 1

test: $(STAMP)  ## every test (the slow cross-checks included), then ruff and mypy --strict
	$(BIN)/pytest
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

test-fast: $(STAMP)  ## the tests without the slow mark, for quick local runs
	$(BIN)/pytest -m "not slow"

bench: $(STAMP)  ## the performance benchmarks recorded in docs/performance.md
	$(BIN)/python -m bench.moves
	$(BIN)/python -m bench.play
	$(BIN)/python -m bench.bots

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
