# Pocket Galaxy: every target installs what it needs into .venv first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play serve test test-fast lint typecheck bench browser-deps clean compile compile-deps pure \
	cluster cluster-down

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

## play: a game of Perils & Pathways in the terminal (you are the Hero).
play: $(STAMP)
	$(BIN)/pocketgalaxy play perils

## serve: the web table on http://127.0.0.1:8000 (SQLite under ./data).
serve: $(STAMP)
	$(BIN)/pocketgalaxy serve

## test: install everything the tests need (Chromium, a throwaway PostgreSQL and Redis included)
## and run them all. The web store is tested on SQLite and on PostgreSQL (scripts/postgres.sh);
## the cluster tests run three workers on that PostgreSQL and a Redis (scripts/redis.sh).
test: $(STAMP) browser-deps
	$(MAKE) compile || echo "WARNING: mypyc build failed: testing the pure-Python rules core"
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	@pg_url=$$(scripts/postgres.sh start) || pg_url=""; \
	redis_url=$$(scripts/redis.sh start) || redis_url=""; \
	POCKETGALAXY_TEST_POSTGRES_URL="$$pg_url" POCKETGALAXY_TEST_REDIS_URL="$$redis_url" \
	$(BIN)/python -m pytest -p no:cacheprovider -q; \
	status=$$?; [ -z "$$pg_url" ] || scripts/postgres.sh stop; \
	[ -z "$$redis_url" ] || scripts/redis.sh stop; exit $$status

## test-fast: the tests without the browser and the slow statistical checks.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not browser and not slow"

## cluster: a throwaway clustered table on loopback: PostgreSQL, Redis and 3 workers on ports
## 8100-8102 (WORKERS=N for another count); `make cluster-down` stops it (scripts/cluster.sh).
WORKERS ?= 3
cluster: $(STAMP)
	scripts/cluster.sh up --workers $(WORKERS)

cluster-down:
	scripts/cluster.sh down

browser-deps:
	@command -v chromium >/dev/null 2>&1 || ( (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq chromium)) || echo "WARNING: chromium missing and cannot be installed" )

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

## compile: build the rules core with mypyc (docs/speed.md); a no-op when the build is fresh.
## Needs a C compiler and the Python headers; without them the pure-Python package is used.
compile: $(STAMP) compile-deps
	$(BIN)/python scripts/compile_core.py build

## compile-deps: a C compiler and the Python headers for `make compile` (Debian, as root).
compile-deps: $(STAMP)
	@( command -v cc >/dev/null 2>&1 && test -f "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ) || ( (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq gcc python3-dev)) || echo "WARNING: no C compiler or Python headers: the rules core stays pure Python" )

## pure: remove the compiled rules core (POCKETGALAXY_PURE=1 forces pure for one process).
pure:
	$(PY) scripts/compile_core.py clean

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
