# Two commands do all set-up on a fresh machine: `make run` and `make test`.
# Both install from the lock files in requirements/ (exact versions with hashes); `make lock` refreshes them.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check
RUNTIME_STAMP := $(VENV)/.runtime-installed
DEV_STAMP     := $(VENV)/.dev-installed
LOCK   := $(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --quiet

.PHONY: run test lint lock clean bench build-EffbatchFunction

# What the bot needs to run, nothing more.
$(RUNTIME_STAMP): requirements/runtime.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) --require-hashes -r requirements/runtime.txt
	$(PIP) --no-deps -e .
	touch $@

# The tools the tests use on top; mypy reads the repository as the package effbatch through a link (pyproject).
$(DEV_STAMP): $(RUNTIME_STAMP) requirements/dev.txt
	$(PIP) --require-hashes -r requirements/dev.txt
	mkdir -p $(VENV)/types && ln -sfn $(CURDIR) $(VENV)/types/effbatch
	touch $@

## run: the bot from .env (Socket Mode, HTTP, or the local console when no tokens are set)
run: $(RUNTIME_STAMP)
	$(BIN)/effbatch-bot

## test: lint, types (mypy strict), the import contracts and the whole test suite, offline
test: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

## lock: recompile requirements/*.txt from pyproject.toml's ranges (UPGRADE=--upgrade takes the newest allowed)
lock: $(DEV_STAMP)
	$(LOCK) $(UPGRADE) -o requirements/runtime.txt
	$(LOCK) $(UPGRADE) --extra dev --constraint requirements/runtime.txt -o requirements/dev.txt

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache .mypy_cache *.egg-info

## build-EffbatchFunction: what `sam build` runs for deploy/aws/template.yaml (BuildMethod: makefile)
build-EffbatchFunction:
	$(PYTHON) -m pip install --quiet --require-hashes --target "$(ARTIFACTS_DIR)" -r requirements/runtime.txt
	$(PYTHON) -m pip install --quiet --no-deps --target "$(ARTIFACTS_DIR)" .  # the Lambda runtime provides boto3

## bench: effbatch's HTTP mode beside a bare Bolt app and a minimal responder (not part of the tests)
bench: $(DEV_STAMP)
	$(BIN)/python bench/bench.py
