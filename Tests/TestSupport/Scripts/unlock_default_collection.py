#!/usr/bin/python3
"""Unlocks the Secret Service's default collection with its password, as a login does, through gnome-keyring's
own org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface (no prompter needed; Debian's python3-dbus).

    python3 unlock_default_collection.py < PASSWORD      (all of standard input, as gnome-keyring-daemon --unlock reads it)

Prints the collection's Locked property afterwards ("locked" or "unlocked"), read back over D-Bus.
"""
import sys

import dbus

password = sys.stdin.read()
bus = dbus.SessionBus()
service_object = bus.get_object("org.freedesktop.secrets", "/org/freedesktop/secrets")
service = dbus.Interface(service_object, "org.freedesktop.Secret.Service")
path = service.ReadAlias("default")
if path == "/":
    raise SystemExit("no default collection")
_, session = service.OpenSession("plain", dbus.String("", variant_level=1))
internal = dbus.Interface(service_object, "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface")
internal.UnlockWithMasterPassword(path, dbus.Struct((session, dbus.ByteArray(b""), dbus.ByteArray(password.encode()), "text/plain")))
collection = bus.get_object("org.freedesktop.secrets", path)
is_locked = collection.Get("org.freedesktop.Secret.Collection", "Locked", dbus_interface=dbus.PROPERTIES_IFACE)
print("locked" if is_locked else "unlocked")
