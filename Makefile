# Two commands: `make run` (set up, run the balance experiments, write their reports) and
# `make test` (set up, then lint, type-check, the tests, the doctests and the notebooks).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,pandas,dask,train,env]'
	touch $(STAMP)

setup: $(STAMP)

QUESTIONS := start-player-skat start-player-skat-en-deux start-player-doko-duell \
	start-player-doko-skat markers-doko-duell ramsch-skat ramsch-skat-en-deux tie-doko-duell \
	tie-doko-skat sweep-doko-duell scoring-skat quality-skat quality-skat-en-deux \
	quality-doko-duell quality-doko-skat
TUNES := tune-skat tune-skat-en-deux tune-doko-duell tune-doko-skat

# One process reports every question and one races every tune (a pool of workers that loads
# the kernels once); `sim.warm --search` also compiles the solvers' searches the quality
# reports solve with.
run: $(STAMP)
	$(BIN)/python -m sim.warm --search
	$(BIN)/stichsim report $(QUESTIONS:%=experiments/%.toml)
	$(BIN)/stichsim tune $(TUNES:%=experiments/%.toml)
	@echo "Reports (open index.html in a browser; summary.md beside it):"
	@for q in $(QUESTIONS) $(TUNES); do echo "  reports/$$q/index.html"; done

# `make test`: the linter (ruff) and the type checker (mypy, over sim and analysis, set up in
# pyproject.toml), every game compiled side by side (`sim.warm`: numba's cache, cold in a
# fresh clone), the tests, the examples in the docstrings (doctests), then every notebook
# on a quick look (3000 deals per variant), side by side (each runs its own experiments), in a
# fresh folder removed afterwards (never over results/ or reports/, never on old results).
# The first step that fails stops the rest.
test: $(STAMP)
	$(BIN)/ruff check sim analysis tests examples
	$(BIN)/mypy
	$(BIN)/python -m sim.warm --solvers
	$(BIN)/python -m pytest -n auto
	$(BIN)/python -m pytest --doctest-modules sim analysis
	work=$$(mktemp -d) && trap 'rm -rf "$$work"' EXIT && \
	STICHSIM_NOTEBOOK_DEALS=3000 STICHSIM_NOTEBOOK_WORKDIR="$$work" \
	$(BIN)/python -m pytest -n auto --nbmake --nbmake-timeout=120 notebooks

clean:
	rm -rf $(VENV) results reports
