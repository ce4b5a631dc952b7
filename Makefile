# The README's two commands are `make demo` and `make test`; everything else is what they build on.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SHARED ?= $(if $(EINVOICE_SHARED),$(EINVOICE_SHARED),$(CURDIR)/../shared)
export EINVOICE_SHARED := $(SHARED)
# The rules home of demo, test and bench: inside build/ (removed by `make clean`), never the user's own.
RULES_HOME ?= $(CURDIR)/build/rules-home
export EINVOICE_VALIDATE_HOME := $(RULES_HOME)

.PHONY: demo test lint docs dist fuzz fuzz-coverage rulesets reference browser strace report-schemas bench bench-server bench-spark wheel-smoke clean

## the package and its runtime dependencies only (what `demo` needs); the development toolchain below includes them.
## The package's bytecode is written at install, as pip does for a wheel: an editable install leaves it to the first
## import, which a PYTHONDONTWRITEBYTECODE environment never writes (every CLI run would compile 70 modules, 0.07 s).
$(VENV)/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m compileall -q src/einvoice_validate >/dev/null
	touch $@

## the development toolchain: every extra (PySpark, JPype, Starlette, uvicorn) and the test and lint tools
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m compileall -q src/einvoice_validate >/dev/null
	touch $(VENV)/.runtime $@

## the rule packs, copied from the shared folder when it is there, else downloaded; verified against the manifests
rulesets: $(VENV)/.runtime
	@if [ -d "$(SHARED)/rulesets" ]; then \
		$(BIN)/einvoice-validate rulesets install --from "$(SHARED)/rulesets" >/dev/null; \
	else \
		echo "no shared folder at $(SHARED)/rulesets: the rule packs are downloaded"; \
		$(BIN)/einvoice-validate rulesets install >/dev/null; \
	fi
	$(BIN)/einvoice-validate rulesets verify

## the Java reference validator (yardstick for parity and speed)
reference:
	bash tools/build-reference.sh

## validate the bundled examples (one is broken on purpose, so exit code 1 is expected here); runtime dependencies only
demo: rulesets
	$(BIN)/einvoice-validate validate examples/*.xml; status=$$?; test $$status -le 1

## the suites whose findings depend on the XSLT engine, and the hostile inputs (tests/input: a crash on one engine is
## a crash): run a second time on the saxon-java engine
ENGINE_SUITES := tests/test_en16931_unit.py tests/test_parity.py tests/test_corpus.py tests/test_schematron.py \
	tests/test_prepare.py tests/test_slim.py tests/test_reference_live.py tests/test_messages.py tests/test_rule_errors.py \
	tests/test_peppol.py tests/test_rules_date.py tests/test_user_packs.py \
	tests/test_facturx.py tests/test_national.py tests/test_versions.py tests/test_france.py tests/test_syntaxes.py \
	tests/test_markets.py tests/test_france_1404.py tests/input

## headless Chromium and pdftotext from Debian, for the test that renders the HTML report (installed if missing)
browser:
	@command -v chromium >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1 || \
		(DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium poppler-utils >/dev/null)

## strace from Debian, for the tests that prove at the C level which files a validation opens (installed if missing)
strace:
	@command -v strace >/dev/null 2>&1 || \
		(DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends strace >/dev/null)

## the published JUnit and SARIF schemas the report tests validate against, from PyPI source releases (pinned)
report-schemas: $(VENV)/.installed
	bash tools/report-schemas.sh $(BIN)/python

## the whole test suite (on the default engine), then the engine-dependent suites on saxon-java
# The saxon-java run without pytest's faulthandler: enabled before the JVM starts, it restores SIGSEGV's default action
# when disabled at the session's end, over the JVM's own handler, and the JVM's shutdown may then die of a SIGSEGV it
# would have handled itself: every test passed, yet the process ends with 139 (seen with tests/test_markets.py).
# Its JVM gets a larger heap than the library's default (768 MB): this one process compiles every pack of every
# family, many of them again from temporary rules homes (a compiled stylesheet is kept per path), and ran out of
# heap in tests/test_france_1404.py at the end (GC overhead limit); a process serving one rules home keeps each
# pack once.
TEST_JVM_OPTIONS ?= -XX:+UseParallelGC -Xmx2g -Xmn160m -Xss8m -Xrs
test: $(VENV)/.installed rulesets reference browser strace report-schemas
	$(BIN)/python -m pytest
	EINVOICE_VALIDATE_ENGINE=saxon-java EINVOICE_JVM_OPTIONS="$(TEST_JVM_OPTIONS)" $(BIN)/python -m pytest -p no:faulthandler $(ENGINE_SUITES)

## the fuzz campaign of issue 40 (tests/fuzz/harness.py) for FUZZ_SECONDS under strace, on one core; the corpus grows
## in FUZZ_DIR/corpus (seeded from ../shared/corpus), crashes and the slowest inputs land in FUZZ_DIR; then the trace
## is checked (no sentinel file, catalog or network address named). The tests run a short form of it.
FUZZ_SECONDS ?= 600
FUZZ_DIR ?= build/fuzz
FUZZ_SEED ?= 1
fuzz: $(VENV)/.installed rulesets strace
	mkdir -p $(FUZZ_DIR)
	set -o pipefail; strace -f -qq -e trace=$$($(BIN)/python -c 'from tests.fuzz.check_trace import TRACED; print(TRACED)') \
		-o $(FUZZ_DIR)/trace.log $(BIN)/python -m tests.fuzz.harness $(FUZZ_DIR) -max_total_time=$(FUZZ_SECONDS) \
		-seed=$(FUZZ_SEED) -timeout=120 -rss_limit_mb=8192 -print_final_stats=1 </dev/null 2>&1 \
		| grep --line-buffered -v '^INFO: Instrumenting' | tee $(FUZZ_DIR)/fuzz.log
	$(BIN)/python -m tests.fuzz.check_trace $(FUZZ_DIR)/trace.log

## the coverage of the campaign's corpus (parse, hardening, envelopes, locations), replayed without the fuzzer
fuzz-coverage: $(VENV)/.installed
	$(BIN)/coverage run --data-file=$(FUZZ_DIR)/.coverage --source=einvoice_validate -m tests.fuzz.replay $(FUZZ_DIR)/corpus
	$(BIN)/coverage report --data-file=$(FUZZ_DIR)/.coverage \
		--include='*/einvoice_validate/parse.py,*/einvoice_validate/hardened.py,*/einvoice_validate/envelopes/*,*/einvoice_validate/locations.py'

lint: $(VENV)/.installed
	$(BIN)/ruff check src tests tools benchmarks
	$(BIN)/ruff format --check src tests tools benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache  # the layer contracts of pyproject.toml [tool.importlinter]

## the documentation site (docs/, mkdocs.yml) into build/site, every warning an error; its reference tables are
## written from the code (tools/docs_hooks.py), its examples run by tests/test_docs.py
docs: $(VENV)/.installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

## the release files: the sdist and the wheel in dist/, checked (twine check, the wheel's files), then the wheel in a
## fresh virtual environment validating the examples (wheel-smoke, on the wheel built here)
dist: $(VENV)/.installed
	rm -rf dist
	$(BIN)/python -m build --sdist --wheel --outdir dist . >/dev/null
	$(BIN)/python -m twine check --strict dist/*
	WHEEL=$$(ls dist/einvoice_validate-*.whl) bash tools/wheel-smoke.sh

## the wheel, installed into a fresh virtual environment outside the repository, validates the examples
wheel-smoke: $(VENV)/.installed
	bash tools/wheel-smoke.sh

## every target of issue 21 in one run (ratios against the reference, both warm), then the per-stage micro benchmarks
bench: $(VENV)/.installed rulesets reference
	command -v wrk >/dev/null 2>&1 || (DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null)
	$(BIN)/python benchmarks/targets.py --page docs/reference/benchmarks.md  # the site's figures page
	$(BIN)/python -m pytest benchmarks --benchmark-enable

## our server against the reference daemon (wrk from Debian, installed here if missing)
bench-server: $(VENV)/.installed rulesets reference
	command -v wrk >/dev/null 2>&1 || (DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null)
	$(BIN)/python benchmarks/server.py

## validate_files on Spark local[2] against BatchValidator(workers=2), both warm (benchmarks/spark.py)
bench-spark: $(VENV)/.installed rulesets
	$(BIN)/python benchmarks/spark.py --warmup 3

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache
