# mekref: the two ways in are `make demo` and `make test`; each sets everything up from nothing.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# Every source or data file that the editable install links; adding one re-links (strict mode
# links files one by one, so a new module is invisible until then).
# Files whose names hold a space (MegaMek's unit designs) cannot be make prerequisites; their
# folder's __init__.py is, so a new sample folder still triggers the install.
SOURCES := $(shell find daemon rules hexmap adapters proto clients/python/src -type f \( -name '*.py' -o -name '*.toml' -o -name '*.json' -o -name '*.jsonl' -o -name '*.proto' -o -name '*.mul' -o -name '*.mtf' -o -name '*.blk' -o -name '*.bfs' -o -name 'Units.txt' \) -not -name '* *' 2>/dev/null)
# The three distributions of the checkout (docs/install.md): mekref-api (clients/api: mekref.v1,
# generated from proto/), the server (.) and mekref-client (clients/python); the api first, as
# the other two require it at the same version. Each is an editable install.
DISTS := ./clients/api . ./clients/python

.PHONY: help install demo test test-fast lint fmt bench bench-check clean proto proto-schema
help:
	@echo "make demo   set up, then run the bundled sample campaign end to end, the same"
	@echo "            campaign with the house rules, and a bundled game of each other rule set"
	@echo "            (mekref game demo --ruleset R)"
	@echo "make test   set up, then run the whole test suite (what CI runs)"
	@echo "make test-fast  the unit and fast integration tests only: no process started, none"
	@echo "            of the 40 measured slowest (docs/testing.md)"
	@echo "make lint   ruff + mypy --strict + import contracts + the size ratchet (bench/sizes.py)"
	@echo "make bench  every benchmark; writes docs/performance.md and README's summary table"
	@echo "make bench-check  the CI guard: growth ratios in one short run, fails past 2x a goal"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip "setuptools>=77" wheel

$(VENV)/.deps: pyproject.toml clients/api/pyproject.toml clients/python/pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ./clients/api --config-settings editable_mode=strict
	$(BIN)/pip install --quiet -e '.[dev]' -e ./clients/python --config-settings editable_mode=strict
	@touch $@

$(VENV)/.installed: $(VENV)/.deps setup.py clients/api/setup.py $(SOURCES)
	@$(MAKE) --no-print-directory proto
	@echo "linking the editable installs (new files appear in build/__editable__... and"
	@echo "clients/*/build/__editable__...)"
	@$(BIN)/pip install --quiet --no-deps --no-build-isolation $(addprefix -e ,$(DISTS)) \
	  --config-settings editable_mode=strict 2> $(VENV)/install.log || { cat $(VENV)/install.log; exit 1; }
	@# Bytecode written once here: with PYTHONDONTWRITEBYTECODE set (as on these machines) every
	@# mekref process would otherwise compile all of its modules again (about 0.5 s a start).
	@$(BIN)/python -m compileall -q -j 0 build/__editable__.* clients/*/build/__editable__.* > /dev/null
	@touch $@

install: $(VENV)/.installed

# Generated API code is produced by the build, never committed: proto/generate.py is the one
# generator, run here and by mekref-api's build hook (clients/api/setup.py: pip install, wheels,
# sdists, pipx). Both write clients/api/gen, the folder the mekref-api package is made from.
proto:
	@$(BIN)/python proto/generate.py

# The rule sets' typed messages (proto/mekref/v1/<rule set>.proto) are written from their
# dataclasses and committed; run this after changing a command, event or state dataclass.
proto-schema: install
	$(BIN)/python -m mekref.daemon.grpc.proto_schema proto
	@$(MAKE) --no-print-directory proto

# Last, the other rule sets: a bundled game each, from set-up to its end, in a throw-away store.
demo: install
	$(BIN)/python -m mekref.daemon.tripwire.demo
	@rm -rf demo-out  # each demo starts a fresh campaign
	$(BIN)/python -m mekref.daemon.samples.ginestra.demo --out demo-out
	$(BIN)/python -m mekref.daemon.samples.ginestra.house_demo --out demo-out/house-rules
	@for r in dystopian_wars objectives succession_wars; do \
	  $(BIN)/mekref game demo --ruleset $$r --out demo-out/games || exit 1; done
	@echo "maps and scenario files of the Ginestra demo: demo-out/ (open the .png maps);"
	@echo "the other rule sets' games: demo-out/games/ (mekref game report --db demo-out/games/R-demo.db)"

# Two test processes (pytest-xdist), one per core; a file's tests stay together on one worker.
# --no-loadscope-reorder: xdist keeps tests/conftest.py's order of files (the measured longest
# first) instead of sorting them by how many tests each holds (quick parametrized files first).
# PYTEST_WORKERS=0 runs them in this process.
PYTEST_WORKERS ?= auto
# pytest rewrites every test module's asserts on import and caches the result as bytecode;
# with PYTHONDONTWRITEBYTECODE set (as on these machines) it cannot, and each test process
# parses and rewrites all 250 test files again (most of `pytest --collect-only`'s time).
# Unset for the tests only; the files go to tests/**/__pycache__, which git ignores.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest
test: install
	$(PYTEST) -q -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The layers are marked by tests/conftest.py from what each test uses (docs/testing.md).
test-fast: install
	$(PYTEST) -q -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not e2e and not slow"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy -p mekref.adapters.megamek -p mekref.rules -p mekref.hexmap -p mekref.daemon -p mekref.client
	$(BIN)/lint-imports
	@# The size ratchet (bench/sizes.txt only shrinks) and the rate of repeated code.
	$(BIN)/python -m bench.sizes

fmt: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Every benchmark (minutes: docs/performance.md records when the last run began and ended); the figures go in docs/performance.md, dated, and
# their summary table in README.md's "Measured" section.
bench: install
	$(BIN)/python -m bench --markdown docs/performance.md --readme README.md

# The guard CI runs: four ratios of growth measured inside one short run (under 2 minutes),
# exit 1 when one is past twice its goal (bench/check.py).
bench-check: install
	$(BIN)/python -m bench.check

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
	rm -rf clients/*/build clients/*/*.egg-info clients/*/src/*.egg-info clients/api/gen clients/api/proto
