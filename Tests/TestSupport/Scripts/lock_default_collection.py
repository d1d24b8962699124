#!/usr/bin/python3
"""Locks the Secret Service's default collection through the service's own Lock method (Debian's python3-dbus).

Prints the collection's Locked property afterwards ("locked" or "unlocked"), read back over D-Bus.
"""
import dbus

bus = dbus.SessionBus()
service_object = bus.get_object("org.freedesktop.secrets", "/org/freedesktop/secrets")
service = dbus.Interface(service_object, "org.freedesktop.Secret.Service")
path = service.ReadAlias("default")
if path == "/":
    raise SystemExit("no default collection")
locked, prompt = service.Lock([path])
if prompt != "/":
    raise SystemExit("locking asked for a prompt")
collection = bus.get_object("org.freedesktop.secrets", path)
is_locked = collection.Get("org.freedesktop.Secret.Collection", "Locked", dbus_interface=dbus.PROPERTIES_IFACE)
print("locked" if is_locked else "unlocked")
