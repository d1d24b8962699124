#!/usr/bin/env bash
# Writes Sources/authvault/startup.order: the functions of the release binary that start-up and the hot commands
# run, in the order they first run, for lld's --symbol-ordering-file (Package.swift) to lay them out together.
#   Scripts/update-symbol-order.sh BINARY [--agent SOCKET] [COMMAND-LINE ...]
# BINARY is a release build (make build). After `authvault --version` and `authvault --help`, each COMMAND-LINE is a
# shell command line that runs `authvault` (under callgrind): run it with a warm profile, as `make bench` sets them up,
# and with XDG_RUNTIME_DIR set as in a login session (a warm `token` looks for the agent's socket there first).
# With --agent, an `authvault agent --socket SOCKET` runs under callgrind beside them, so that what the agent runs
# to answer them is listed too (after theirs): it is a long-running process whose memory counts. E.g.
#   Scripts/update-symbol-order.sh "$bin" --agent "$socket" "authvault --profile file token" \
#       "AUTHVAULT_AGENT_SOCKET=$socket authvault git-credential get < request"
# Functions it does not list still link, after the listed ones; a stale name is skipped.
set -euo pipefail
binary=$(realpath "$1")
shift
agent_socket=
if [ "${1:-}" = --agent ]; then
    agent_socket=$2
    shift 2
fi
cd "$(dirname "$0")/.."
work=$(mktemp -d)
agent=
trap '[ -z "$agent" ] || kill "$agent" 2>/dev/null; rm -rf "$work"' EXIT
# valgrind cannot read the toolchain's DWARF 5; the symbol table alone names the functions.
strip --strip-debug -o "$work/authvault" "$binary"
callgrind=(valgrind --tool=callgrind --demangle=no --compress-strings=no)
runs=0
# What the command lines run: the copy, counted, each run's profile in a file of its own.
authvault() {
    runs=$((runs + 1))
    "${callgrind[@]}" --callgrind-out-file="$work/$runs.out" "$work/authvault" "$@" >/dev/null 2>"$work/$runs.err" || true
}
if [ -n "$agent_socket" ]; then
    # exec: the background job is valgrind itself, which the TERM below reaches.
    (exec "${callgrind[@]}" --callgrind-out-file="$work/agent.out" "$work/authvault" agent --socket "$agent_socket") \
        >/dev/null 2>"$work/agent.err" &
    agent=$!
    for _ in $(seq 1 300); do [ -S "$agent_socket" ] && break; sleep 0.1; done
    [ -S "$agent_socket" ] || { echo "update-symbol-order: the agent did not listen on $agent_socket" >&2; exit 1; }
fi
for line in "authvault --version" "authvault --help" "$@"; do
    eval "$line" </dev/null
done
outputs=$(seq -f "$work/%g.out" 1 "$runs")
if [ -n "$agent" ]; then
    # A stopped agent exits normally, and callgrind writes its profile then.
    kill -TERM "$agent"
    wait "$agent" || true
    agent=
    outputs="$outputs $work/agent.out"
fi
python3 - "$work" $outputs >Sources/authvault/startup.order <<'PYTHON'
import sys
work, outputs = sys.argv[1], sys.argv[2:]
seen = set()
for output in outputs:
    binary = None
    for line in open(output):
        if line.startswith("ob="):
            binary = line[3:].strip() == f"{work}/authvault"
        elif line.startswith("fn=") and binary:
            name = line[3:].strip()
            if name not in seen and not name.startswith(("0x", "(")):
                seen.add(name)
                print(name)
PYTHON
echo "Sources/authvault/startup.order: $(wc -l <Sources/authvault/startup.order) functions from $runs runs${agent_socket:+ and the agent}"
