#!/usr/bin/python3
"""Locks or unlocks the Secret Service's default collection (Debian's python3-dbus).

    python3 default_collection.py lock                  through the service's own Lock method
    python3 default_collection.py unlock < PASSWORD     with its password, as a login does, through gnome-keyring's
                                                        org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface (no
                                                        prompter; all of standard input, as gnome-keyring-daemon
                                                        --unlock reads it)

Prints the collection's Locked property afterwards ("locked" or "unlocked"), read back over D-Bus.
"""
import sys

import dbus

action = sys.argv[1] if len(sys.argv) == 2 else ""
if action not in ("lock", "unlock"):
    raise SystemExit("usage: default_collection.py lock|unlock")
bus = dbus.SessionBus()
service_object = bus.get_object("org.freedesktop.secrets", "/org/freedesktop/secrets")
service = dbus.Interface(service_object, "org.freedesktop.Secret.Service")
path = service.ReadAlias("default")
if path == "/":
    raise SystemExit("no default collection")
if action == "lock":
    _, prompt = service.Lock([path])
    if prompt != "/":
        raise SystemExit("locking asked for a prompt")
else:
    password = sys.stdin.read()
    _, session = service.OpenSession("plain", dbus.String("", variant_level=1))
    internal = dbus.Interface(service_object, "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface")
    internal.UnlockWithMasterPassword(path, dbus.Struct((session, dbus.ByteArray(b""), dbus.ByteArray(password.encode()), "text/plain")))
collection = bus.get_object("org.freedesktop.secrets", path)
is_locked = collection.Get("org.freedesktop.Secret.Collection", "Locked", dbus_interface=dbus.PROPERTIES_IFACE)
print("locked" if is_locked else "unlocked")
