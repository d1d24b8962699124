#!/bin/sh
# Checks Sources/CSecret against the real GLib and libsecret headers (needs libsecret-1-dev and a C compiler):
#   sh Tests/TestSupport/Scripts/check_csecret_declarations.sh [PACKAGE_ROOT]
# CSecret declares the types and constants it uses itself (SecretTypes.h) and types each dlsym'd function by its
# wrapper's prototype (CSecret.h); a mismatch would be silent at build time and undefined at run time. This
# compiles, with pkg-config's flags: (1) SecretLibrary.c against the real headers, asserting every wrapper and helper
# pointer has the real function's type; (2) SecretTypes.h renamed M_*, asserting equal values, sizes and layouts.
# Prints "CSecret declarations match" and exits 0, or prints the failed assertions and exits non-zero.
set -eu
root=${1:-.}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -E 's/\b(g(char|int|boolean|uint|size|ssize|pointer|constpointer)|_?G[A-Z][A-Za-z]*|_?Secret[A-Za-z]*|G_[A-Z_]+|SECRET_[A-Z_]+|AUTHVAULT_SECRET_TYPES_H)\b/M_\1/g' \
    "$root/Sources/CSecret/include/SecretTypes.h" > "$work/renamed.h"
cat > "$work/check.c" <<'CHECK'
#include <libsecret/secret.h>
#include <stddef.h>
#define AUTHVAULT_SECRET_TYPES_H /* the real headers stand in for the mirror */
#include "SecretLibrary.c"
#define SAME(name) _Static_assert(__builtin_types_compatible_p(__typeof__(authvault_##name), __typeof__(name)), #name);
FORWARDED_FUNCTIONS(SAME)
#define SAME_POINTER(name) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(*library.name), __typeof__(name)), #name);
SAME_POINTER(g_hash_table_new_full) SAME_POINTER(g_hash_table_insert) SAME_POINTER(g_str_hash)
SAME_POINTER(g_str_equal) SAME_POINTER(g_strdup) SAME_POINTER(g_list_free_full)
#include "renamed.h"
#define VALUE(name) _Static_assert((long)M_##name == (long)name, #name);
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
#define FIELD(type, field) _Static_assert(offsetof(M_##type, field) == offsetof(type, field) \
    && sizeof(((M_##type *)0)->field) == sizeof(((type *)0)->field), #type "." #field);
FIELD(GList, data) FIELD(GList, next) FIELD(GList, prev)
FIELD(GError, domain) FIELD(GError, code) FIELD(GError, message)
_Static_assert(sizeof(M_GList) == sizeof(GList) && sizeof(M_GError) == sizeof(GError), "GList, GError sizes");
CHECK
# shellcheck disable=SC2046 # pkg-config's flags are meant to split
${CC:-cc} -std=gnu11 -fsyntax-only $(pkg-config --cflags libsecret-1) -I"$work" -I"$root/Sources/CSecret" \
    -I"$root/Sources/CSecret/include" -I"$root/Sources/CLibraryLoader/include" "$work/check.c"
echo "CSecret declarations match"
