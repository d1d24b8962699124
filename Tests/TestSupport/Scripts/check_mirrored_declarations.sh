#!/bin/sh
# Checks a loader that mirrors a library's declarations, CSecret (GLib, libsecret) or CDBus (libdbus), against the
# real headers (needs libsecret-1-dev / libdbus-1-dev, pkg-config and a C compiler):
#   sh Tests/TestSupport/Scripts/check_mirrored_declarations.sh CSecret|CDBus [PACKAGE_ROOT]
# The loader declares the types and constants it uses itself (its *Types.h) and types each dlsym'd function by its
# wrapper's prototype; a mismatch would be silent at build time and undefined at run time. This compiles, with
# pkg-config's flags: (1) the loader's .c against the real headers, asserting every wrapper (and helper pointer) has
# the real function's type; (2) the mirror header renamed M_*, asserting equal values, sizes and layouts.
# Prints "<target> declarations match" and exits 0, or prints the failed assertions and exits non-zero.
set -eu
target=${1:?usage: check_mirrored_declarations.sh CSecret|CDBus [PACKAGE_ROOT]}
root=${2:-.}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $target in
CSecret)
    package=libsecret-1 real_header=libsecret/secret.h mirror=SecretTypes.h loader=SecretLibrary.c
    guard=AUTHVAULT_SECRET_TYPES_H
    mirrored_names='g(char|int|boolean|uint|size|ssize|pointer|constpointer)|_?G[A-Z][A-Za-z]*|_?Secret[A-Za-z]*|G_[A-Z_]+|SECRET_[A-Z_]+'
    cat > "$work/assertions.h" <<'CHECK'
#define SAME_POINTER(name) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(*library.name), __typeof__(name)), #name);
SAME_POINTER(g_hash_table_new_full) SAME_POINTER(g_hash_table_insert) SAME_POINTER(g_str_hash)
SAME_POINTER(g_str_equal) SAME_POINTER(g_strdup) SAME_POINTER(g_list_free_full)
VALUE(G_IO_ERROR_CANCELLED) VALUE(G_IO_ERROR_TIMED_OUT)
VALUE(G_DBUS_ERROR_SERVICE_UNKNOWN) VALUE(G_DBUS_ERROR_NAME_HAS_NO_OWNER) VALUE(G_DBUS_ERROR_NO_REPLY)
VALUE(G_DBUS_ERROR_NO_SERVER) VALUE(G_DBUS_ERROR_TIMEOUT) VALUE(G_DBUS_ERROR_DISCONNECTED)
VALUE(G_DBUS_ERROR_FILE_NOT_FOUND) VALUE(G_DBUS_ERROR_TIMED_OUT)
VALUE(SECRET_ERROR_IS_LOCKED) VALUE(SECRET_SEARCH_ALL) VALUE(SECRET_SEARCH_LOAD_SECRETS)
VALUE(SECRET_SERVICE_NONE) VALUE(SECRET_SERVICE_OPEN_SESSION) VALUE(SECRET_COLLECTION_NONE) VALUE(SECRET_ITEM_CREATE_REPLACE)
VALUE(SECRET_SCHEMA_NONE)
#define TYPE(name) _Static_assert(__builtin_types_compatible_p(M_##name, name), #name);
TYPE(gchar) TYPE(gint) TYPE(gboolean) TYPE(guint) TYPE(gsize) TYPE(gssize) TYPE(gpointer) TYPE(gconstpointer)
TYPE(GQuark)
#define ENUM(name) \
    _Static_assert(sizeof(M_##name) == sizeof(name) && ((M_##name)-1 > 0) == ((name)-1 > 0), #name);
ENUM(GIOErrorEnum) ENUM(GDBusError) ENUM(SecretError) ENUM(SecretSearchFlags) ENUM(SecretServiceFlags)
ENUM(SecretCollectionFlags) ENUM(SecretItemCreateFlags) ENUM(SecretSchemaFlags)
FIELD(GList, data) FIELD(GList, next) FIELD(GList, prev)
FIELD(GError, domain) FIELD(GError, code) FIELD(GError, message)
_Static_assert(sizeof(M_GList) == sizeof(GList) && sizeof(M_GError) == sizeof(GError), "GList, GError sizes");
CHECK
    ;;
CDBus)
    package=dbus-1 real_header=dbus/dbus.h mirror=DBusTypes.h loader=DBusLibrary.c guard=AUTHVAULT_DBUS_TYPES_H
    mirrored_names='dbus_bool_t|DBus[A-Za-z]*|DBUS_[A-Z_]+'
    cat > "$work/assertions.h" <<'CHECK'
VALUE(DBUS_BUS_SESSION) VALUE(DBUS_TYPE_INVALID) VALUE(DBUS_TYPE_BYTE) VALUE(DBUS_TYPE_STRING)
VALUE(DBUS_TYPE_OBJECT_PATH) VALUE(DBUS_TYPE_ARRAY) VALUE(DBUS_TYPE_VARIANT) VALUE(DBUS_TYPE_STRUCT)
VALUE(DBUS_TYPE_DICT_ENTRY)
_Static_assert(__builtin_types_compatible_p(M_dbus_bool_t, dbus_bool_t), "dbus_bool_t");
_Static_assert(sizeof(M_DBusBusType) == sizeof(DBusBusType), "DBusBusType");
FIELD(DBusError, name) FIELD(DBusError, message) FIELD(DBusError, padding1)
FIELD(DBusMessageIter, dummy1) FIELD(DBusMessageIter, dummy3) FIELD(DBusMessageIter, dummy11)
FIELD(DBusMessageIter, pad1) FIELD(DBusMessageIter, pad3)
_Static_assert(sizeof(M_DBusError) == sizeof(DBusError) && _Alignof(M_DBusError) == _Alignof(DBusError), "DBusError");
_Static_assert(sizeof(M_DBusMessageIter) == sizeof(DBusMessageIter)
    && _Alignof(M_DBusMessageIter) == _Alignof(DBusMessageIter), "DBusMessageIter");
CHECK
    ;;
*)
    echo "check_mirrored_declarations.sh: unknown target $target (CSecret or CDBus)" >&2
    exit 2
    ;;
esac
sed -E "s/\\b($mirrored_names|$guard)\\b/M_\\1/g" "$root/Sources/$target/include/$mirror" > "$work/renamed.h"
cat > "$work/check.c" <<CHECK
#include <$real_header>
#include <stddef.h>
#define $guard /* the real headers stand in for the mirror */
#include "$loader"
#define SAME(name) _Static_assert(__builtin_types_compatible_p(__typeof__(authvault_##name), __typeof__(name)), #name);
FORWARDED_FUNCTIONS(SAME)
#include "renamed.h"
#define VALUE(name) _Static_assert((long)M_##name == (long)name, #name);
#define FIELD(type, field) _Static_assert(offsetof(M_##type, field) == offsetof(type, field) \\
    && sizeof(((M_##type *)0)->field) == sizeof(((type *)0)->field), #type "." #field);
#include "assertions.h"
CHECK
# shellcheck disable=SC2046 # pkg-config's flags are meant to split
${CC:-cc} -std=gnu11 -fsyntax-only $(pkg-config --cflags "$package") -I"$work" -I"$root/Sources/$target" \
    -I"$root/Sources/$target/include" -I"$root/Sources/CLibraryLoader/include" "$work/check.c"
echo "$target declarations match"
