#!/usr/bin/env bash
# The published schemas the report tests validate against, taken from package releases on PyPI (MIT licensed,
# pinned by sha256) into build/report-schemas/; they are never committed:
#   junit-10.xsd             Jenkins xUnit plugin's JUnit schema, as shipped in pytest's source release
#                            (testing/example_scripts/junit-10.xsd; pytest validates its own JUnit output with it)
#   sarif-2.1.0-rtm.4.json   Microsoft's SARIF 2.1.0 JSON schema (release-candidate 4 of 2.1.0), as shipped in the
#                            source release of sarif-om, Microsoft's SARIF 2.1.0 object model
# The final OASIS schema is not on any package registry reachable here: tools/check-report-schemas.sh checks
# against it where the network allows.
# Usage: bash tools/report-schemas.sh [python]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${1:-.venv/bin/python}
DIR=build/report-schemas
mkdir -p "$DIR"

fetch() {  # sdist name, its sha256, member inside it, its sha256, target file
    local sdist=$1 sdist_sha=$2 member=$3 member_sha=$4 target=$DIR/$5
    if [ -f "$target" ] && echo "$member_sha  $target" | sha256sum --check --status; then
        return
    fi
    local tmp
    tmp=$(mktemp -d)
    "$PY" -m pip download --quiet --no-deps --no-binary :all: --dest "$tmp" "$sdist" 2>/dev/null
    local archive
    archive=$(ls "$tmp"/*.tar.gz)
    echo "$sdist_sha  $archive" | sha256sum --check --status || { echo "checksum mismatch: $archive" >&2; exit 1; }
    tar -xzf "$archive" -C "$tmp" "$member"
    echo "$member_sha  $tmp/$member" | sha256sum --check --status || { echo "checksum mismatch: $member" >&2; exit 1; }
    mv "$tmp/$member" "$target"
    rm -rf "$tmp"
}

fetch pytest==8.3.4 965370d062bce11e73868e0335abac31b4d3de0e82f4007408d242b4f8610761 \
    pytest-8.3.4/testing/example_scripts/junit-10.xsd a1a816f58d1bf95ebabf371994df0b9246dee66ea9572fbec4f9296f1b2c0ff6 \
    junit-10.xsd
fetch sarif-om==1.0.4 cd5f416b3083e00d402a92e449a7ff67af46f11241073eea0461802a3b5aef98 \
    sarif_om-1.0.4/sarif-2.1.0-rtm.4.json 49729d5909e2b1b976621a29dcebef22e57c78c20d469dfe6c7f15f759904f61 \
    sarif-2.1.0-rtm.4.json
