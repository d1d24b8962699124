// libsecret (and the GLib it stands on) as seen from Swift. The varargs calls (secret_password_store_sync and
// friends, secret_schema_new) cannot be called from Swift: use the ...v variants with a GHashTable, or add a
// static inline wrapper here.
#ifndef AUTHVAULT_CSECRET_SHIM_H
#define AUTHVAULT_CSECRET_SHIM_H

#include <libsecret/secret.h>

// A string-to-string table that owns copies of its keys and values (attribute sets, schema definitions).
static inline GHashTable *authvault_string_table_new(void) {
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

static inline void authvault_string_table_insert(GHashTable *table, const char *key, const char *value) {
    g_hash_table_insert(table, g_strdup(key), value ? g_strdup(value) : NULL);
}

// Releases a list of GObjects (search results, unlocked objects): g_object_unref as a GDestroyNotify.
static inline void authvault_object_list_free(GList *list) {
    g_list_free_full(list, g_object_unref);
}

#endif
