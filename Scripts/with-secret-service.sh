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

# Inside the new bus: start the keyring, wait until its default collection is there and unlocked, run the command,
# stop the keyring. The daemon names the collection before its --unlock is done (a command started then found it
# locked), and now and then leaves it locked: it is then unlocked with the same password, as a login does
# (Tests/TestSupport/Scripts/default_collection.py).
inner='
printf "%s" "$password" | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
keyring=$!
unlocked() {
    dbus-send --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets/aliases/default \
        org.freedesktop.DBus.Properties.Get string:org.freedesktop.Secret.Collection string:Locked 2>/dev/null \
        | grep -q "boolean false"
}
for _ in $(seq 1 500); do
    unlocked && break
    sleep 0.02
done
unlocked || printf "%s" "$password" | /usr/bin/python3 "$collection_script" unlock >/dev/null 2>&1 || true
if ! unlocked; then
    echo "with-secret-service: the keyring daemon did not unlock its default collection" >&2
    kill $keyring 2>/dev/null || true
    exit 1
fi
unset password collection_script
status=0
keyctl session - "$@" || status=$?
kill $keyring 2>/dev/null || true
exit $status
'
export password=authvault-keyring-password
export collection_script
collection_script="$(cd "$(dirname "$0")/.." && pwd)/Tests/TestSupport/Scripts/default_collection.py"
# The bus daemon's own chatter (fd limits, activation notices) is not the command's output.
exec dbus-run-session -- bash -c "$inner" with-secret-service "$@" 2> >(grep -v -e '^dbus-daemon' -e '^discover_other_daemon' >&2)
