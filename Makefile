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
REFEREE_TESTS ?= 1

# IPv6 literals need brackets in a bind address.
BIND := $(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)):$(PORT)

.PHONY: run test coverage setup install chromium lint format bench lighthouse clean messages messages-check gettext

# The translations (locale/<language>/LC_MESSAGES/django.po, compiled to django.mo and
# committed, so that running the app needs no gettext tools). docs/translating.md.
LANGUAGES_TRANSLATED := de eo
MESSAGES_IGNORE := --ignore=.venv --ignore=staticfiles --ignore=bench --ignore=tests \
	--ignore=var --ignore=tools --ignore=docs --ignore=screenshots

$(BIN)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

install: $(BIN)/.installed

setup: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0

# At every start, forget idempotency keys older than 30 days, empty the trash of sheets
# deleted more than 30 days ago and delete expired sessions; the app itself does it
# again about every hour while it runs (games/cleanup.py).
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

test: setup chromium messages-check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@# The referee's own tests (tests/rules: no Django, no database, no browser) run in
	@# one process beside the main suite. REFEREE_TESTS=0 leaves them out (CI's second
	@# pass, on PostgreSQL: they never touch a database).
	@rules_log=$$(mktemp); rules=; \
	if [ "$(REFEREE_TESTS)" != 0 ]; then \
		$(BIN)/python -m pytest -p no:django tests/rules > $$rules_log 2>&1 & rules=$$!; \
	fi; \
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --ignore=tests/rules $(PYTEST_ARGS); main=$$?; \
	rules_status=0; \
	if [ -n "$$rules" ]; then \
		wait $$rules; rules_status=$$?; \
		echo "The referee's own tests (tests/rules, without Django):"; cat $$rules_log; \
	fi; \
	rm -f $$rules_log; \
	test $$main -eq 0 && test $$rules_status -eq 0

# The referee's branch coverage (games/rules/, from its own tests; CI runs this too).
coverage: install
	$(BIN)/python -m pytest -n $(TEST_WORKERS) -p no:django --cov --cov-report= tests/rules
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
	$(BIN)/python bench/bench_transfer.py
	$(BIN)/python bench/bench_storage.py
	$(BIN)/python bench/bench_evening.py

lighthouse: setup chromium
	$(BIN)/python bench/lighthouse.py

clean:
	rm -rf $(VENV) staticfiles .coverage .pytest_cache .hypothesis bench/.lighthouse

# GNU gettext (xgettext, msgmerge, msgfmt) for makemessages; installed from Debian's
# packages when missing and allowed, as the browser is.
gettext:
	@if command -v xgettext >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian's gettext for the translation check"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; \
	fi

# After changing a string a person reads: collect the strings into the catalogues,
# translate what is new or fuzzy in locale/*/LC_MESSAGES/django.po, then `make messages`
# again to compile them.
messages: install gettext
	$(BIN)/python manage.py makemessages --no-wrap $(MESSAGES_IGNORE) $(addprefix -l ,$(LANGUAGES_TRANSLATED))
	$(BIN)/python manage.py compilemessages --ignore=.venv

# Fails when a string marked for translation is missing from a catalogue, is not
# translated or is fuzzy, or when a committed .mo is not the compiled .po. Runs
# makemessages on a copy of the catalogues and puts the committed ones back.
messages-check: install gettext
	@if ! command -v xgettext >/dev/null 2>&1; then \
		echo "GNU gettext is missing (apt-get install gettext): the translation check is skipped"; exit 0; fi; \
	saved=$$(mktemp -d); cp -a locale "$$saved/"; status=0; \
	$(BIN)/python manage.py makemessages --no-wrap $(MESSAGES_IGNORE) $(addprefix -l ,$(LANGUAGES_TRANSLATED)) >/dev/null || status=1; \
	for lang in $(LANGUAGES_TRANSLATED); do \
		po=locale/$$lang/LC_MESSAGES/django.po; \
		missing=$$(msgattrib --untranslated --no-obsolete "$$po" | grep -c '^msgid ' ); \
		fuzzy=$$(msgattrib --only-fuzzy --no-obsolete "$$po" | grep -c '^msgid '); \
		if [ "$$missing" -gt 1 ] || [ "$$fuzzy" -gt 0 ]; then \
			echo "$$po: $$((missing > 0 ? missing - 1 : 0)) untranslated, $$fuzzy fuzzy (make messages, then translate):"; \
			msgattrib --untranslated --no-obsolete --no-wrap "$$po" | grep '^msgid "[^"]' | head -20; \
			msgattrib --only-fuzzy --no-obsolete --no-wrap "$$po" | grep '^msgid "[^"]' | head -20; \
			status=1; fi; \
		msgfmt --check -o "$$saved/$$lang.mo" "$$saved/locale/$$lang/LC_MESSAGES/django.po" || status=1; \
		cmp -s "$$saved/$$lang.mo" "locale/$$lang/LC_MESSAGES/django.mo" || { \
			echo "locale/$$lang/LC_MESSAGES/django.mo is not the compiled django.po: make messages"; status=1; }; \
	done; \
	rm -rf locale && cp -a "$$saved/locale" . && rm -rf "$$saved"; \
	exit $$status
