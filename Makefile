# Two commands: `make run` (set up, run the balance experiments, write their reports) and
# `make test` (set up + all tests).
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

QUESTIONS := start-player-skat start-player-skat-en-deux start-player-doko-duell \
	start-player-doko-skat markers-doko-duell ramsch-skat ramsch-skat-en-deux tie-doko-duell \
	tie-doko-skat sweep-doko-duell

run: $(STAMP)
	@for q in $(QUESTIONS); do $(BIN)/stichsim report experiments/$$q.toml || exit 1; done
	@echo "Reports (open index.html in a browser; summary.md beside it):"
	@for q in $(QUESTIONS); do echo "  reports/$$q/index.html"; done

test: $(STAMP)
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) results reports
