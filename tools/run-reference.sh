#!/usr/bin/env bash
# Run the reference validator (KoSIT-like: JDK Xerces XSD + official Schematron XSLTs with Saxon-HE for Java).
#
#   tools/run-reference.sh [--warmup N] [--repeat N] [--threads N] [--xsd-gate] FILE...
#
# stdout: one JSON object per file (JSONL); stderr: "threads=.. docs=.. seconds=.. docs_per_s=..".
# Builds the reference first (tools/build-reference.sh) if it is missing or stale.
# Shared data folder: $EINVOICE_SHARED, default <repo root>/../shared.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="${EINVOICE_SHARED:-$repo_root/../shared}"
saxon_jar=/usr/share/java/Saxon-HE.jar
out="$repo_root/build/reference"

# Builds only when the class is missing or older than the .java (a few milliseconds otherwise).
"$repo_root/tools/build-reference.sh"

if [ "$#" -eq 0 ]; then
    echo "usage: tools/run-reference.sh [--warmup N] [--repeat N] [--threads N] [--xsd-gate] FILE..." >&2
    exit 2
fi

# The plan's paths are relative to the rulesets folder, so we cd there: make FILE arguments absolute first,
# leaving options and their numeric values alone.
args=()
expect_value=0
for a in "$@"; do
    if [ "$expect_value" -eq 1 ]; then
        args+=("$a"); expect_value=0
    elif [ "$a" = "--repeat" ] || [ "$a" = "--threads" ] || [ "$a" = "--warmup" ]; then
        args+=("$a"); expect_value=1
    elif [ "$a" = "--xsd-gate" ]; then
        args+=("$a")
    else
        # RefValidate dies with a stack trace (and exit status 0) on a missing file: check here instead.
        if [ ! -r "$a" ] || [ -d "$a" ]; then
            echo "run-reference: not a readable file: $a" >&2
            exit 2
        fi
        args+=("$(realpath -s -- "$a")")
    fi
done

cd "$shared/rulesets"
# plan-full = plan-kosit + Peppol BIS Billing 3.0 + ZUGFeRD (REFERENCE_PLAN=plan-kosit.tsv for the KoSIT routes only).
# REFERENCE_PLAN: a plan of ../shared/reference by name, or a plan file of one's own by absolute path (its xsd and
# xslt paths relative to the shared rulesets folder, as in the shared plans; tests/test_national.py writes one).
plan="${REFERENCE_PLAN:-plan-full.tsv}"
case "$plan" in
    /*) ;;
    *) plan="../reference/$plan" ;;
esac
exec java -cp "$saxon_jar:$out" RefValidate "$plan" "${args[@]}"
