#!/usr/bin/env bash
# The package as a user gets it: build the wheel, install it with its dependencies into a fresh virtual
# environment outside the repository, install the rule packs with the installed command (from the shared folder
# when it is there, else downloaded) into a fresh rules home, and validate the bundled examples.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
shared=${EINVOICE_SHARED:-$repo/../shared}
work=$(mktemp -d "${TMPDIR:-/tmp}/einvoice-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT

pip_quiet() {  # pip's output only when it fails
    "$@" > "$work/pip.log" 2>&1 || { cat "$work/pip.log" >&2; exit 1; }
}
if [ -n "${WHEEL:-}" ]; then  # `make dist` hands over the wheel it built and checked
    wheel=$(cd "$(dirname "$WHEEL")" && pwd)/$(basename "$WHEEL")
else
    pip_quiet "$repo/.venv/bin/python" -m pip wheel --no-deps --wheel-dir "$work/dist" "$repo"
    wheel=$(ls "$work"/dist/einvoice_validate-*.whl)
fi
"$python" -m zipfile -l "$wheel" > "$work/contents"
for needed in einvoice_validate/py.typed licenses/LICENSE einvoice_validate/_rulesets/packs/ubl-2.1/2.1/NOTICE \
    einvoice_validate/_rulesets/profiles.toml einvoice_validate/_rulesets/messages/ einvoice_validate/cli.py \
    einvoice_validate/_rulesets/engines.toml 'entry_points.txt'; do
    grep -q "$needed" "$work/contents" || { echo "wheel-smoke: $needed is not in $(basename "$wheel")" >&2; exit 1; }
done
# nothing of the checkout but the package: no tests, benchmarks, tools, docs or virtual environment
if grep -E '^(tests|benchmarks|tools|docs|examples|\.venv|build)/' "$work/contents" >&2; then
    echo "wheel-smoke: $(basename "$wheel") holds files outside the package (above)" >&2; exit 1
fi

"$python" -m venv "$work/venv"
pip_quiet "$work/venv/bin/python" -m pip install --disable-pip-version-check "$wheel"
cli="$work/venv/bin/einvoice-validate"
export EINVOICE_VALIDATE_HOME="$work/rules-home"
cd "$work"  # nothing of the repository on sys.path
if [ -d "$shared/rulesets" ]; then
    "$cli" rulesets install --from "$shared/rulesets" >/dev/null
else
    "$cli" rulesets install >/dev/null
fi
"$cli" rulesets verify >/dev/null

set +e
"$cli" validate "$repo"/examples/*.xml > "$work/out.txt"
status=$?
set -e
cat "$work/out.txt"
valid=$(grep -c ': valid' "$work/out.txt" || true)
invalid=$(grep -c ': INVALID' "$work/out.txt" || true)
if [ "$status" -ne 1 ] || [ "$valid" -ne 3 ] || [ "$invalid" -ne 1 ]; then
    echo "wheel-smoke: expected exit 1 with 3 valid and 1 invalid example, got exit $status, $valid valid, $invalid invalid" >&2
    exit 1
fi
# show: the installed viewer pack renders the broken example (exit 1: invalid), its findings on the page
set +e
"$cli" show "$repo/examples/xrechnung-ubl-broken.xml" -o "$work/show.html" 2>/dev/null
status=$?
set -e
if [ "$status" -ne 1 ] || ! grep -q 'BR-DE-15' "$work/show.html"; then
    echo "wheel-smoke: show of the broken example gave exit $status (expected 1) or a page without BR-DE-15" >&2
    exit 1
fi
echo "wheel-smoke: ok ($(basename "$wheel") in a fresh venv validated the examples and showed one)"
