# The two commands: `make run` and `make test`; `make check` is the fast loop. Everything else here serves them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SYSTEM_PACKAGES := chromium chromium-headless-shell redis-server nginx fonts-dejavu-core fonts-noto-core fonts-noto-cjk libfribidi0
# The venv's own pip, pinned: the one Python 3.11 brings (23.2) takes 8.5 s to choose the pinned releases, this one 3.2
PIP := pip==26.3
HOST ?= 127.0.0.1
PORT ?= 5000

# pytest-xdist: two processes, each taking the next test (the tests of a fixture made once, as the
# grader's mutants or the Redis Cluster, come first and stay in one process: tests/conftest.py's made_once)
PARALLEL := -n 2 --dist worksteal
# make check's tests, and make test's unit tests, run where no server may start (tests/isolation/run)
ISOLATED := tests/isolation/run
# Python writes its bytecode here even where the environment says not to: pytest keeps each test module
# rewritten (its asserts) in __pycache__, so a second run, and make test's second phase, skip that work
unexport PYTHONDONTWRITEBYTECODE

LINTERS := lint-ruff lint-format lint-imports lint-types lint-radon

.PHONY: run test check lint $(LINTERS) format system-packages nginx bench clean

# nginx on HOST:PORT in front of gunicorn on a unix socket (deploy/front.py, deploy/nginx.conf); ctrl-C stops both.
run: $(VENV)/.run-installed nginx
	$(PY) deploy/front.py --host $(HOST) --port $(PORT)

# Every test once: the unit tests (the slow ones too) where no server may start, then the others
# (those run even if a unit test failed; make test fails if either run did).
test: lint system-packages
	$(ISOLATED) $(PY) -m pytest -q -m unit $(PARALLEL); unit=$$?; \
	$(PY) -m pytest -q -m "not unit" $(PARALLEL); others=$$?; \
	[ $$unit = 0 ] && [ $$others = 0 ]

# The fast loop: the unit tests but the slow ones (no server, no Redis, no browser), with lint beside
# them (mypy's 3 s of one core fit beside the tests' two processes); lint's output follows the tests',
# then a line says which failed.
check: $(VENV)/.test-installed
	@log=$$(mktemp); $(MAKE) --no-print-directory lint > $$log 2>&1 & linting=$$!; \
	$(ISOLATED) $(PY) -m pytest -q -m "unit and not slow" $(PARALLEL); tests=$$?; \
	wait $$linting; lint=$$?; cat $$log; rm -f $$log; \
	verdict() { [ $$1 = 0 ] && echo passed || echo FAILED; }; \
	echo "make check: lint $$(verdict $$lint), unit tests $$(verdict $$tests)"; \
	[ $$lint = 0 ] && [ $$tests = 0 ]

# Every linter runs, the ones after a failure too (make -k), and each says when it passed.
lint: $(VENV)/.test-installed
	@$(MAKE) --no-print-directory -k $(LINTERS)

lint-ruff:
	$(PY) -m ruff check .
lint-format:
	$(PY) -m ruff format --check .
lint-imports:
	$(VENV)/bin/lint-imports --no-cache --no-logo
lint-types:
	$(PY) -m mypy
lint-radon:
	@rated=$$($(VENV)/bin/radon cc -n C -s ttt_web) || exit 1; \
	if [ -n "$$rated" ]; then echo "$$rated"; echo "radon: functions rated C or worse (above)"; exit 1; fi; \
	echo "radon: every function in ttt_web rated A or B"

format: $(VENV)/.test-installed
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

bench: $(VENV)/.test-installed system-packages
	@command -v wrk >/dev/null || { $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q wrk; }
	@command -v valgrind >/dev/null || { $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q valgrind; }  # bench/page_instructions.py, by hand
	$(PY) bench/engine.py
	$(PY) bench/load.py
	$(PY) bench/slow_clients.py
	$(PY) bench/streams.py
	$(PY) bench/new_sessions.py
	$(PY) bench/seat_race.py
	$(PY) bench/wrk.py

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check $(PIP)

$(VENV)/.run-installed: requirements.txt | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-compile -r requirements.txt
	touch $@

$(VENV)/.test-installed: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-compile -r requirements-dev.txt
	touch $@ $(VENV)/.run-installed

# nginx, the front of `make run` (it lives in /usr/sbin, outside a user's PATH).
nginx:
	@if ! PATH="$$PATH:/usr/sbin" command -v nginx >/dev/null; then \
		echo "Installing nginx with apt-get"; \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q nginx; \
	fi

# Debian packages the suite drives: Chromium (browser tests), redis-server (Redis tests), nginx (make run);
# and the review picture's fonts and libfribidi0 (Pillow's raqm lays out right-to-left names with it).
system-packages:
	@if ! command -v chromium >/dev/null || ! command -v redis-server >/dev/null || ! dpkg -s $(filter-out chromium redis-server,$(SYSTEM_PACKAGES)) >/dev/null 2>&1; then \
		echo "Installing $(SYSTEM_PACKAGES) with apt-get"; \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $(SYSTEM_PACKAGES); \
	fi

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis screenshots mutants
