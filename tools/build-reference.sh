#!/usr/bin/env bash
# Build the reference validator (../shared/reference/RefValidate.java, a yardstick for parity and speed; not part
# of the product) into build/reference/. Idempotent and quiet when everything is already in place.
#
# Needs: Saxon-HE for Java (Debian libsaxonhe-java) and a JDK (javac), Java 17 or later (PySpark 4, for the Spark
# tests, needs it too); both are installed with apt-get if missing.
# Shared data folder: $EINVOICE_SHARED, default <repo root>/../shared.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
shared="${EINVOICE_SHARED:-$repo_root/../shared}"
saxon_jar=/usr/share/java/Saxon-HE.jar
src="$shared/reference/RefValidate.java"
out="$repo_root/build/reference"
class="$out/RefValidate.class"

apt_updated=0
# apt-get is chatty (debconf notes on stderr too): keep its output, show it only when it fails.
quiet() {
    local log
    log="$(mktemp)"
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "build-reference: failed: $*" >&2
        exit 1
    fi
    rm -f "$log"
}
apt_install() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "build-reference: need root to install $* (or install it yourself)" >&2
        exit 1
    fi
    if [ "$apt_updated" -eq 0 ]; then
        quiet env DEBIAN_FRONTEND=noninteractive apt-get update
        apt_updated=1
    fi
    echo "build-reference: installing $*" >&2
    quiet env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
}

[ -f "$saxon_jar" ] || apt_install libsaxonhe-java
command -v javac >/dev/null 2>&1 || apt_install openjdk-17-jdk-headless
# The Spark tests' JVM too (tests/test_spark.py): PySpark 4 runs on Java 17 or 21 only.
java_major() { java -version 2>&1 | sed -n 's/.*version "\(1\.\)\{0,1\}\([0-9]*\).*/\2/p' | head -n 1; }
if [ "$(java_major)" -lt 17 ] 2>/dev/null; then
    apt_install openjdk-17-jdk-headless
fi

if [ ! -f "$src" ]; then
    echo "build-reference: $src not found (set EINVOICE_SHARED to the shared data folder)" >&2
    exit 1
fi

if [ ! -f "$class" ] || [ "$src" -nt "$class" ]; then
    mkdir -p "$out"
    javac -nowarn -cp "$saxon_jar" -d "$out" "$src"
fi
