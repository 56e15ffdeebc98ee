# Scorekeeper: `make run` serves the app, `make test` runs the whole suite.
# Both create .venv and install requirements.txt first, so a fresh clone needs
# only Python 3.11+ and make.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 2
PYTEST_ARGS ?=
# The suite runs on every core (pytest-xdist); TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= auto

# IPv6 literals need brackets in a bind address.
BIND := $(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)):$(PORT)

.PHONY: run test setup install chromium lint format bench lighthouse clean

$(BIN)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

install: $(BIN)/.installed

setup: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0

# Forget month-old idempotency keys and empty the month-old trash at every start.
run: setup
	$(BIN)/python manage.py clearexpired
	@echo "Scorekeeper on http://$(BIND)/"
	WORKERS=$(WORKERS) $(BIN)/gunicorn scorekeeper.wsgi -c scorekeeper/gunicorn.conf.py --bind $(BIND)

# Browser tests drive Debian's Chromium through Playwright; never a downloaded browser.
chromium:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	else \
		echo "Chromium is missing (apt-get install chromium): the browser tests will be skipped"; \
	fi

test: setup chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@# The referee's own tests (tests/rules: no Django, no browser, only CPU) run in one
	@# process beside the main suite, which leaves a core idle while browsers wait.
	@rules_log=$$(mktemp); \
	$(BIN)/python -m pytest -p no:django --cov --cov-report= tests/rules > $$rules_log 2>&1 & rules=$$!; \
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --ignore=tests/rules $(PYTEST_ARGS); main=$$?; \
	wait $$rules; rules_status=$$?; \
	echo "The referee's own tests (tests/rules, without Django), measuring its coverage:"; \
	cat $$rules_log; rm -f $$rules_log; \
	test $$main -eq 0 && test $$rules_status -eq 0
	@echo "Branch coverage of the referee (games/rules/):"
	$(BIN)/coverage report --include='games/rules/*' --no-skip-covered --fail-under=95

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	$(BIN)/python bench/bench_referee.py
	$(BIN)/python bench/bench_arrange.py
	$(BIN)/python bench/bench_sheet.py
	$(BIN)/python bench/bench_isolation.py
	$(BIN)/python bench/bench_standings.py

lighthouse: setup chromium
	$(BIN)/python bench/lighthouse.py

clean:
	rm -rf $(VENV) staticfiles .coverage .pytest_cache .hypothesis bench/.lighthouse
