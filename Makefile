# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint clean bench build-EffbatchFunction

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## run: the bot from .env (Socket Mode, HTTP, or the local console when no tokens are set)
run: $(STAMP)
	$(BIN)/effbatch-bot

## test: lint and the whole test suite, offline
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache *.egg-info

## build-EffbatchFunction: what `sam build` runs for deploy/aws/template.yaml (BuildMethod: makefile)
build-EffbatchFunction:
	$(PYTHON) -m pip install --quiet --target "$(ARTIFACTS_DIR)" .  # the Lambda runtime provides boto3

## bench: effbatch's HTTP mode beside a bare Bolt app and a minimal responder (not part of the tests)
bench: $(STAMP)
	$(BIN)/python bench/bench.py
