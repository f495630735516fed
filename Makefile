# Two commands: `make run` (set up + default experiment) and `make test` (set up + all tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,pandas]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/stichsim run experiments/skat-baseline.toml --resume
	$(BIN)/stichsim run experiments/skat-en-deux-baseline.toml --resume
	$(BIN)/stichsim run experiments/doko-duell-baseline.toml --resume
	$(BIN)/stichsim run experiments/doko-skat-baseline.toml --resume

test: $(STAMP)
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) results
