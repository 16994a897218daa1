# fathom: one command to set up, one to play, one to test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup lint check test play bench flash deploy clean runtime web

setup: $(STAMP)

$(STAMP): requirements.txt host_tools/pyproject.toml
	@$(PY) -c 'import venv' 2>/dev/null || (apt-get update && apt-get install -y python3-venv)
	@# the 32-bit runtimes (`make runtime`) need a compiler that links 32-bit programs
	@printf 'int main(void){return 0;}\n' | gcc -m32 -x c - -o /tmp/fathom-m32-check 2>/dev/null \
		|| (apt-get update && apt-get install -y build-essential gcc-multilib)
	@rm -f /tmp/fathom-m32-check
	@# the web page: npm vendors MicroPython's WebAssembly port; its tests drive Debian's chromium
	@command -v npm >/dev/null || (apt-get update && apt-get install -y nodejs npm)
	@test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium)
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet -e host_tools
	@# MicroPython 1.28's source for the 32-bit runtimes: found beside the clone, or fetched
	@# (git clone of tag v1.28.0) and checked against its pinned commit
	$(BIN)/fathom runtime source || echo "make setup: going on without it; the tests that need it say so"
	touch $(STAMP)

lint: setup
	$(BIN)/ruff check .

# The fast loop: lint, then every test not marked slow (no emulated unit games, no whole-game
# play-outs, no long fuzzing: those are make test's).
check: lint
	$(BIN)/python -m pytest -q -n 2 -m "not slow and not bench" tests

# Four workers on two cores, each taking whole files, the heaviest first (tests/conftest.py): a
# test with emulated units uses a core for a fifth of its time or less (its units mostly wait:
# on each other, and 140 ms for every press a person would make), so two more workers fill the
# cores those leave idle.
test: setup web
	$(BIN)/python -m pytest -q -n 4 --dist loadfile --no-loadscope-reorder -m "not bench" tests

play: setup
	$(BIN)/fathom emu

# The units in a web page (a static folder, build/web): `fathom web` serves it on localhost.
web: setup
	$(BIN)/fathom web --build-only

# The device-faithful 32-bit MicroPython runtimes (stock, frozen) under build/runtime/; built
# again only when the source, the manifests or the frozen files change.
runtime: setup
	$(BIN)/fathom runtime build --kind all

# the chaos bench at 5 games a case (about an hour; its default of 20 takes hours: run it alone)
bench: setup
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m bench tests
	$(BIN)/fathom bench all --json
	$(BIN)/fathom bench chaos --games 5 --json

flash: setup
	$(BIN)/fathom flash --board $(BOARD) --port $(PORT)

deploy: setup
	$(BIN)/fathom deploy --board $(BOARD) --port $(PORT)

clean:
	rm -rf $(VENV) build var .pytest_cache
