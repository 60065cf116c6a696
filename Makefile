# Two entry points: `make run` (the web playground) and `make test` (lint, types, tests).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
LOCK := requirements.lock

SUDO := $(shell [ "$$(id -u)" = 0 ] || command -v sudo)

.PHONY: run test lint browser docs bench lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Installs are pinned by $(LOCK) (pip constraints), so a new machine gets what CI tested.
# The octal kernels are then compiled once into numba's disk cache (about 15 CPU s), so a
# server's time budget or a test's memory peak counts computing, not compiling.
$(VENV)/.installed: pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c $(LOCK) -e '.[all]'
	$(BIN)/python -c 'from nimlab.octal.summary import warm_up; warm_up()'
	touch $@

$(VENV)/.test-installed: pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c $(LOCK) -e '.[test]'
	$(BIN)/python -c 'from nimlab.octal.summary import warm_up; warm_up()'
	touch $@

# Refresh the lock on purpose: resolve '.[test,bench]' (every extra) afresh in a
# scratch venv, with whatever the registries serve today, and freeze it. Then run `make test`
# (the contract suite is the gate) before committing the new $(LOCK).
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet '.[test,bench]'
	{ echo "# pip constraints for make run / make test; regenerate with 'make lock'"; \
	  .lock-venv/bin/python -m pip freeze --exclude-editable | grep -v '^nimlab'; } > $(LOCK)
	rm -rf .lock-venv

# The main job: the web playground on http://127.0.0.1:8000/ (Ctrl-C stops it).
run: $(VENV)/.installed
	$(BIN)/nimlab serve

lint: $(VENV)/.test-installed
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# Browser tests drive Debian's chromium (Playwright must not download a browser of its own).
browser:
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }

# The suite runs on every core (pytest-xdist; a test is handed to whichever worker is free).
# It includes the notebooks of docs/notebooks (nbmake) and the strict build of the docs site
# (tests/docs), so a notebook that breaks or a broken link fails it.
test: lint browser
	$(BIN)/pytest -n auto --dist worksteal

# The docs site (MkDocs, Material, mkdocstrings) into site/; --strict: a broken link or a
# reference that does not resolve fails the build.
docs: $(VENV)/.test-installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

bench: $(VENV)/.test-installed
	$(BIN)/python -m pip install --quiet -c $(LOCK) -e '.[test,bench]'
	for script in benchmarks/bench_*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) .lock-venv .pytest_cache .mypy_cache .ruff_cache .hypothesis site .cache
