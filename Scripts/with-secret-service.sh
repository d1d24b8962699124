#!/usr/bin/env bash
# Runs a command beside a private Secret Service: a fresh D-Bus session bus with gnome-keyring-daemon on it (its
# login collection unlocked), throw-away HOME and XDG directories, and a fresh kernel session keyring. Nothing of
# the real user's Secret Service keyring, home or session keyring is touched; a file vault's data key goes to the
# user's kernel keyring (@u), with a time-out, as for any process (the benchmark takes its key out again). Used by
# `make bench` (and the demo).
#   Scripts/with-secret-service.sh COMMAND [ARGUMENTS...]
set -euo pipefail
root=$(mktemp -d "${TMPDIR:-/tmp}/authvault-keyring.XXXXXX")
trap 'rm -rf "$root"' EXIT
for directory in home data config cache state runtime; do mkdir -m 700 -p "$root/$directory"; done
export HOME="$root/home" XDG_DATA_HOME="$root/data" XDG_CONFIG_HOME="$root/config" XDG_CACHE_HOME="$root/cache" \
       XDG_STATE_HOME="$root/state" XDG_RUNTIME_DIR="$root/runtime"

# Inside the new bus: start the keyring, wait for its default collection, run the command, stop the keyring.
inner='
printf "authvault-keyring-password" | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
keyring=$!
for _ in $(seq 1 500); do
    if dbus-send --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
        org.freedesktop.Secret.Service.ReadAlias string:default 2>/dev/null | grep -q /collection/; then break; fi
    sleep 0.02
done
status=0
keyctl session - "$@" || status=$?
kill $keyring 2>/dev/null || true
exit $status
'
# The bus daemon's own chatter (fd limits, activation notices) is not the command's output.
exec dbus-run-session -- bash -c "$inner" with-secret-service "$@" 2> >(grep -v -e '^dbus-daemon' -e '^discover_other_daemon' >&2)
