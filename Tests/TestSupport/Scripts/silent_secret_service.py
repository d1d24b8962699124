#!/usr/bin/python3
"""Owns org.freedesktop.secrets on the session bus and never answers a call (Debian's python3-dbus).

It requests the name, prints "ready", then blocks reading stdin without ever dispatching a message, so every call
to the Secret Service waits forever. It exits when its stdin closes, so it cannot outlive the test that started it.
"""
import sys

import dbus

bus = dbus.SessionBus()
if bus.request_name("org.freedesktop.secrets", dbus.bus.NAME_FLAG_DO_NOT_QUEUE) != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
    sys.exit("org.freedesktop.secrets is already owned")
print("ready", flush=True)
sys.stdin.read()
