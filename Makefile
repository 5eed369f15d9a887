# Everything installs into .venv from scratch; nothing is assumed on the machine but python3.
# The interpreter the venv is made from: PYTHON=... if given; otherwise the system's own
# /usr/bin/python3 when it is 3.11 or later (pyproject.toml's requires-python) and can
# make a venv, since a distribution's CPython is built optimised (a hand-built one, as
# pyenv's often is, may not be); else python3 on PATH. Only a new venv reads this: an
# existing .venv keeps the interpreter it was made from (make clean to change it).
SYSTEM_PYTHON ?= /usr/bin/python3
PYTHON ?= $(shell $(SYSTEM_PYTHON) -c 'import sys, ensurepip, venv; \
	sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && echo $(SYSTEM_PYTHON) || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: run test check ruff lint typing-tree bench fuzz docs snapshots-update clean

# Python may write its byte code (__pycache__, ignored by git) even where the environment
# says not to (PYTHONDONTWRITEBYTECODE=1; uv compiles nothing at install): otherwise every
# process of a run, and a test run starts hundreds, compiles numpy, pandas, Textual and
# the rest from source again.
unexport PYTHONDONTWRITEBYTECODE

# The packages install with uv (itself from PyPI, into the venv): from a warm cache it
# installs the test extras' many packages much faster than pip.
UV := $(BIN)/uv pip install --quiet --python $(BIN)/python

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Its own rule, so that an existing venv without uv gets it too.
$(BIN)/uv: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv==0.13.9

$(STAMP_RUN): pyproject.toml constraints.txt | $(BIN)/uv
	$(UV) -c constraints.txt -e .
	touch $@

# pyspark is published only as a source archive, which uv builds into a wheel and
# caches. From an index that gives no date or tag to revalidate with, installing it
# among the others downloads the archive and builds the wheel again on every fresh
# venv. Asked for alone, by its pin and without its dependencies, uv takes the wheel it
# built before; the rest then install around it.
# Its exact version (what `-e '.[test]'` then gets), read from constraints.txt.
SPARK_PIN := $(shell sed -n 's/^\(pyspark==[^ #]*\).*/\1/p' constraints.txt)

$(STAMP_TEST): pyproject.toml constraints.txt | $(BIN)/uv
	$(if $(SPARK_PIN),$(UV) --no-deps '$(SPARK_PIN)')
	$(UV) -c constraints.txt -e '.[test]'
	touch $@ $(STAMP_RUN)

run: $(STAMP_RUN)
	$(BIN)/threshold-lab $(ARGS)

# mypy checks the package under its installed names: a tree of links, threshold_lab/
# holding core/ and tui/ as the wheel does (see [tool.mypy] in pyproject.toml).
TYPING := $(VENV)/typing/threshold_lab
typing-tree: | $(BIN)/python
	mkdir -p $(TYPING)
	ln -sfn ../../../threshold_lab/__init__.py $(TYPING)/__init__.py
	ln -sfn ../../../threshold_lab/__main__.py $(TYPING)/__main__.py
	ln -sfn ../../../core $(TYPING)/core
	ln -sfn ../../../tui $(TYPING)/tui

ruff: $(STAMP_TEST)
	$(BIN)/ruff check threshold_lab core tui tests bench
	$(BIN)/ruff format --check threshold_lab core tui tests bench

# mypy keeps its cache beside uv's, in the user's cache folder, rather than in the
# clone, so a fresh clone reuses what an earlier one checked.
# pyproject.toml names the files by the clone's absolute path, so that a file another
# clone checked is compared by its hash, never trusted for a size and a time alone;
# what changed is checked again. With no home folder it stays in the clone, as it does
# with MYPY_CACHE=.mypy_cache.
MYPY_CACHE ?= $(if $(XDG_CACHE_HOME)$(HOME),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/threshold-lab/mypy,.mypy_cache)
MYPY := MYPY_CACHE_DIR='$(MYPY_CACHE)' $(BIN)/mypy

lint: ruff typing-tree
	$(MYPY)

# A fixed hypothesis seed: CI replays the same examples every run (pytest alone, and
# make fuzz with SEED=..., explore new ones). mypy (single-threaded) runs beside the
# tests rather than before them; its verdict and the tests' both decide the status. The
# ten slowest tests are listed at the end. Before the workers start, two processes
# collect the tests, core's and the rest (the output is not needed: the run reports any
# error of collection again), so that a fresh clone compiles each module's byte code
# once rather than once in every worker.
# pytest-xdist's workers, more than the cores: a test often waits (a screen, the JVM, a child).
WORKERS ?= 4
COLLECT := $(BIN)/python -m pytest --collect-only -p no:cacheprovider
test: ruff typing-tree
	@$(MYPY) > $(VENV)/mypy.out 2>&1 & types=$$!; \
	$(COLLECT) tests/core tests/test_doctests.py > /dev/null 2>&1 & core=$$!; \
	$(COLLECT) tests/tui tests/api tests/docs > /dev/null 2>&1; wait $$core; \
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadgroup --durations=10 \
		--hypothesis-seed=$(SEED); tests=$$?; \
	wait $$types; typed=$$?; echo "mypy:"; cat $(VENV)/mypy.out; \
	test $$tests -eq 0 && test $$typed -eq 0

# The inner loop: lint, types and core's unit tests (no soaks, engines or screens).
# Two workers: these tests keep a core busy without waiting, so a third only shares.
check: lint
	$(BIN)/python -m pytest -n 2 -x --hypothesis-seed=$(SEED) tests/core \
		tests/test_doctests.py --ignore=tests/core/engines --ignore=tests/core/data/test_fuzz_loaders.py

# The long soaks, with a fixed seed so a failure can be replayed (SEED=... to vary it):
# loader fuzzing and plain mode far longer than in `make test` (50,000 commands a seed
# against 400), and the key mash at 1,500 keys a seed (make test presses 100).
SEED ?= 20261130
fuzz: $(STAMP_TEST)
	FUZZ_EXAMPLES=5000 PLAIN_SOAK_COMMANDS=50000 SOAK_KEYS=1500 $(BIN)/python -m pytest -q \
		-n $(WORKERS) tests/core/data/test_fuzz_loaders.py tests/tui/test_plain_soak.py \
		tests/tui/test_soak.py --hypothesis-seed=$(SEED)

# The pages' images and figures, drawn by the current code, and docs/options.md, written
# from core's option table (tests/docs/test_images.py and tests/api/test_front_door.py
# hold the committed ones equal to these): look at each image before committing it.
docs: $(STAMP_TEST)
	$(BIN)/python -m tests.docs.images
	$(BIN)/python -m tests.docs.options_page

snapshots-update: $(STAMP_TEST)
	$(BIN)/python -m pytest tests --snapshot-update

# Every script in bench/ that the docs cite, the headline first (docs/benchmarks.md has
# the figures; a test holds this list and the docs' citations together).
BENCH := headline sweep_vs_sklearn sweep_vs_sort report_floor startup load_vs_pandas \
	key_latency report_memory goal_vs_sweep operating_points intervals compare multiclass \
	decision groups bootstrap_response aggregate api_vs_cli keymash_tmux metric_at_thresholds \
	accessible band

bench: $(STAMP_TEST)
	$(UV) -e '.[bench]'
	set -e; for name in $(BENCH); do echo "== bench/$$name.py"; \
		$(BIN)/python bench/$$name.py; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache snapshot_report.html
