# The README's two commands are `make demo` and `make test`; everything else is what they build on.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SHARED ?= $(if $(EINVOICE_SHARED),$(EINVOICE_SHARED),$(CURDIR)/../shared)
export EINVOICE_SHARED := $(SHARED)

.PHONY: demo test lint rulesets reference bench bench-server clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

## the rule packs, copied from the official files and verified against the manifests
rulesets: $(VENV)/.installed
	$(BIN)/einvoice-validate rulesets install --from $(SHARED)/rulesets >/dev/null
	$(BIN)/einvoice-validate rulesets verify

## the Java reference validator (yardstick for parity and speed)
reference:
	bash tools/build-reference.sh

## validate the bundled examples (one is broken on purpose, so exit code 1 is expected here)
demo: rulesets
	$(BIN)/einvoice-validate validate examples/*.xml; status=$$?; test $$status -le 1

## the whole test suite
test: rulesets reference
	$(BIN)/python -m pytest

lint: $(VENV)/.installed
	$(BIN)/ruff check src tests tools benchmarks
	$(BIN)/ruff format --check src tests tools benchmarks
	$(BIN)/mypy

bench: rulesets reference
	$(BIN)/python -m pytest benchmarks --benchmark-enable

## our server against the reference daemon (wrk from Debian, installed here if missing)
bench-server: rulesets reference
	command -v wrk >/dev/null 2>&1 || (DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null)
	$(BIN)/python benchmarks/server.py

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache
