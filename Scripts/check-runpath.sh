#!/usr/bin/env bash
# Fails when a binary's RPATH or RUNPATH names its own directory ($ORIGIN) or a relative directory: the dynamic
# loader would then load a library planted there (beside the binary, or in the current directory) before the
# system's. A plain `swift build` adds $ORIGIN; every build of the Makefile passes --disable-local-rpath, and
# `make build`, `make deb` and `make demo` run this on the binary they built.
# Usage: Scripts/check-runpath.sh BINARY
set -euo pipefail

binary=${1:?Usage: $0 BINARY}
[ -f "$binary" ] || { echo "check-runpath: no binary at $binary" >&2; exit 2; }
# The dynamic section's RPATH and RUNPATH entries, as "Library runpath: [dir:dir]" lines.
paths=$(LC_ALL=C readelf -d "$binary" | sed -n 's/.*Library r[a-z]*path: \[\(.*\)\]$/\1/p' | tr ':' '\n')
while IFS= read -r directory; do
    [ -n "$directory" ] || continue
    case $directory in
        *'$ORIGIN'* | *'${ORIGIN}'* | [!/]*)
            echo "check-runpath: $binary loads libraries from '$directory' (its RPATH/RUNPATH): a library planted" \
                "there would load. Build with 'swift build --disable-local-rpath' (the Makefile's builds do)." >&2
            exit 1 ;;
    esac
done <<< "$paths"
