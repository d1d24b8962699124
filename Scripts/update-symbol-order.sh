#!/usr/bin/env bash
# Writes Sources/authvault/startup.order: the functions of the release binary that start-up and the hot commands
# run, in the order they first run, for lld's --symbol-ordering-file (Package.swift) to lay them out together.
#   Scripts/update-symbol-order.sh BINARY [COMMAND-LINE ...]
# BINARY is a release build (make build). After `authvault --version` and `authvault --help`, each COMMAND-LINE is a
# shell command line that runs `authvault` (under callgrind): run it with a warm profile and an agent at hand, as
# `make bench` sets them up, e.g.
#   Scripts/update-symbol-order.sh "$bin" "authvault --profile file token" \
#       "AUTHVAULT_AGENT_SOCKET=$socket authvault git-credential get < request"
# Functions it does not list still link, after the listed ones; a stale name is skipped.
set -euo pipefail
binary=$(realpath "$1")
shift
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind cannot read the toolchain's DWARF 5; the symbol table alone names the functions.
strip --strip-debug -o "$work/authvault" "$binary"
runs=0
# What the command lines run: the copy, counted, each run's profile in a file of its own.
authvault() {
    runs=$((runs + 1))
    valgrind --tool=callgrind --demangle=no --compress-strings=no --callgrind-out-file="$work/$runs.out" \
        "$work/authvault" "$@" >/dev/null 2>"$work/$runs.err" || true
}
for line in "authvault --version" "authvault --help" "$@"; do
    eval "$line" </dev/null
done
python3 - "$work" "$runs" >Sources/authvault/startup.order <<'PYTHON'
import sys
work, runs = sys.argv[1], int(sys.argv[2])
seen = set()
for run in range(1, runs + 1):
    binary = None
    for line in open(f"{work}/{run}.out"):
        if line.startswith("ob="):
            binary = line[3:].strip() == f"{work}/authvault"
        elif line.startswith("fn=") and binary:
            name = line[3:].strip()
            if name not in seen and not name.startswith(("0x", "(")):
                seen.add(name)
                print(name)
PYTHON
echo "Sources/authvault/startup.order: $(wc -l <Sources/authvault/startup.order) functions from $runs runs"
