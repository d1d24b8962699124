// The few libdbus types and constants that authvault uses, transcribed from libdbus 1.14 (Debian 12; a stable ABI
// within the soname libdbus-1.so.3) so that its headers are not a build dependency (they need pkg-config's include
// paths). Tests/TestSupport/Scripts/check_mirrored_declarations.sh compares them with the real headers.
#ifndef AUTHVAULT_DBUS_TYPES_H
#define AUTHVAULT_DBUS_TYPES_H

#include <stdint.h>

// dbus/dbus-types.h, dbus-shared.h, dbus-protocol.h
typedef uint32_t dbus_bool_t;
typedef enum { DBUS_BUS_SESSION = 0 } DBusBusType;
enum {
    DBUS_TYPE_INVALID = 0,
    DBUS_TYPE_BYTE = 'y',
    DBUS_TYPE_STRING = 's',
    DBUS_TYPE_OBJECT_PATH = 'o',
    DBUS_TYPE_ARRAY = 'a',
    DBUS_TYPE_VARIANT = 'v',
    DBUS_TYPE_STRUCT = 'r',
    DBUS_TYPE_DICT_ENTRY = 'e',
};

typedef struct DBusConnection DBusConnection;
typedef struct DBusMessage DBusMessage;

// dbus/dbus-errors.h: on the caller's stack, initialized with authvault_dbus_error_init.
typedef struct DBusError {
    const char *name;
    const char *message;
    unsigned int dummy1 : 1;
    unsigned int dummy2 : 1;
    unsigned int dummy3 : 1;
    unsigned int dummy4 : 1;
    unsigned int dummy5 : 1;
    void *padding1;
} DBusError;

// dbus/dbus-message.h (64-bit layout): on the caller's stack.
typedef struct DBusMessageIter {
    void *dummy1;
    void *dummy2;
    uint32_t dummy3;
    int dummy4, dummy5, dummy6, dummy7, dummy8, dummy9, dummy10, dummy11;
    int pad1;
    void *pad2;
    void *pad3;
} DBusMessageIter;

#endif
