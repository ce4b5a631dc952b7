#!/usr/bin/env bash
# Validate the SARIF report of the examples against the published OASIS SARIF 2.1.0 schema (needs network).
# The schema's licence (OASIS IPR policy) keeps it out of the repository; tests/test_reports.py validates against
# tests/schemas/sarif-2.1.0-subset.json, written here. This downloads the published schema (pinned by sha256)
# into build/report-schemas/ and checks the examples' SARIF output (and the JUnit output against junit-10.xsd).
# Usage: bash tools/check-report-schemas.sh   (after `make rulesets report-schemas`)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
DIR=build/report-schemas
URL=https://raw.githubusercontent.com/oasis-tcs/sarif-spec/e0583813964ec43cea53b6b531b402866095ed1f/sarif-2.1/schema/sarif-schema-2.1.0.json
SHA256=c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e
mkdir -p "$DIR"
schema="$DIR/sarif-schema-2.1.0.json"
if [ ! -f "$schema" ] || ! echo "$SHA256  $schema" | sha256sum --check --status; then
    curl -fsSL "$URL" -o "$schema.part"
    echo "$SHA256  $schema.part" | sha256sum --check --status || { echo "checksum mismatch: $URL" >&2; exit 1; }
    mv "$schema.part" "$schema"
fi
export EINVOICE_VALIDATE_HOME="${EINVOICE_VALIDATE_HOME:-$PWD/build/rules-home}"
"$BIN/einvoice-validate" validate --format sarif examples/*.xml >"$DIR/examples.sarif" || [ $? -le 1 ]
"$BIN/einvoice-validate" validate --format junit examples/*.xml >"$DIR/examples.junit.xml" || [ $? -le 1 ]
"$BIN/python" - "$schema" "$DIR/examples.sarif" "$DIR/examples.junit.xml" <<'PY'
import json
import sys

import jsonschema
from lxml import etree

schema, sarif, junit = sys.argv[1:]
jsonschema.Draft4Validator(json.load(open(schema))).validate(json.load(open(sarif)))
xsd = etree.XMLSchema(etree.parse("build/report-schemas/junit-10.xsd"))
xsd.assertValid(etree.parse(junit))
print(f"{sarif}: valid SARIF 2.1.0 (published schema); {junit}: valid against junit-10.xsd")
PY
