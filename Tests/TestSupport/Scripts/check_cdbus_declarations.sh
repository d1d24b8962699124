#!/bin/sh
# Checks Sources/CDBus against the real libdbus headers (needs libdbus-1-dev and a C compiler):
#   sh Tests/TestSupport/Scripts/check_cdbus_declarations.sh [PACKAGE_ROOT]
# CDBus declares the types and constants it uses itself (DBusTypes.h) and types each dlsym'd function by its
# wrapper's prototype (CDBus.h); a mismatch would be silent at build time and undefined at run time. This compiles,
# with pkg-config's flags: (1) DBusLibrary.c against the real headers, asserting every wrapper has the real
# function's type; (2) DBusTypes.h renamed M_*, asserting equal values, sizes and layouts.
# Prints "CDBus declarations match" and exits 0, or prints the failed assertions and exits non-zero.
set -eu
root=${1:-.}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -E 's/\b(dbus_bool_t|DBus[A-Za-z]*|DBUS_[A-Z_]+|AUTHVAULT_DBUS_TYPES_H)\b/M_\1/g' \
    "$root/Sources/CDBus/include/DBusTypes.h" > "$work/renamed.h"
cat > "$work/check.c" <<'CHECK'
#include <dbus/dbus.h>
#include <stddef.h>
#define AUTHVAULT_DBUS_TYPES_H /* the real headers stand in for the mirror */
#include "DBusLibrary.c"
#define SAME(name) _Static_assert(__builtin_types_compatible_p(__typeof__(authvault_##name), __typeof__(name)), #name);
FORWARDED_FUNCTIONS(SAME)
#include "renamed.h"
#define VALUE(name) _Static_assert((long)M_##name == (long)name, #name);
VALUE(DBUS_BUS_SESSION) VALUE(DBUS_TYPE_INVALID) VALUE(DBUS_TYPE_BYTE) VALUE(DBUS_TYPE_STRING)
VALUE(DBUS_TYPE_OBJECT_PATH) VALUE(DBUS_TYPE_ARRAY) VALUE(DBUS_TYPE_VARIANT) VALUE(DBUS_TYPE_STRUCT)
VALUE(DBUS_TYPE_DICT_ENTRY)
_Static_assert(__builtin_types_compatible_p(M_dbus_bool_t, dbus_bool_t), "dbus_bool_t");
_Static_assert(sizeof(M_DBusBusType) == sizeof(DBusBusType), "DBusBusType");
#define FIELD(type, field) _Static_assert(offsetof(M_##type, field) == offsetof(type, field) \
    && sizeof(((M_##type *)0)->field) == sizeof(((type *)0)->field), #type "." #field);
FIELD(DBusError, name) FIELD(DBusError, message) FIELD(DBusError, padding1)
FIELD(DBusMessageIter, dummy1) FIELD(DBusMessageIter, dummy3) FIELD(DBusMessageIter, dummy11)
FIELD(DBusMessageIter, pad1) FIELD(DBusMessageIter, pad3)
_Static_assert(sizeof(M_DBusError) == sizeof(DBusError) && _Alignof(M_DBusError) == _Alignof(DBusError), "DBusError");
_Static_assert(sizeof(M_DBusMessageIter) == sizeof(DBusMessageIter)
    && _Alignof(M_DBusMessageIter) == _Alignof(DBusMessageIter), "DBusMessageIter");
CHECK
# shellcheck disable=SC2046 # pkg-config's flags are meant to split
${CC:-cc} -std=gnu11 -fsyntax-only $(pkg-config --cflags dbus-1) -I"$work" -I"$root/Sources/CDBus" \
    -I"$root/Sources/CDBus/include" -I"$root/Sources/CLibraryLoader/include" "$work/check.c"
echo "CDBus declarations match"
