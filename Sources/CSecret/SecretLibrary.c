// Opens libsecret-1.so.0 on first use and forwards the wrappers of CSecret.h to it; GLib's functions are found
// through libsecret, which depends on GLib, GObject and GIO. The wrappers have names of our own: a function named
// like one of those libraries' would be what they bind to.
#include "CSecret.h"

#include <CLibraryLoader.h>

// The functions behind the wrappers, each typed by its wrapper's prototype (the same signature).
#define FORWARDED_FUNCTIONS(X) \
    X(g_cancellable_new) X(g_cancellable_is_cancelled) X(g_cancellable_cancel) X(g_object_unref) X(g_free) \
    X(g_list_append) X(g_list_free) X(g_hash_table_lookup) X(g_hash_table_unref) X(g_error_free) \
    X(g_io_error_quark) X(g_dbus_error_quark) X(g_dbus_proxy_get_object_path) \
    X(secret_service_get_sync) X(secret_service_unlock_sync) X(secret_collection_for_alias_sync) \
    X(secret_collection_get_locked) X(secret_collection_get_label) X(secret_collection_search_sync) \
    X(secret_item_create_sync) X(secret_item_delete_sync) X(secret_item_get_attributes) X(secret_item_get_secret) \
    X(secret_value_new) X(secret_value_get) X(secret_value_unref) X(secret_schema_newv) X(secret_error_get_quark)

static struct functions {
#define FORWARDED_POINTER(name) __typeof__(authvault_##name) *name;
    FORWARDED_FUNCTIONS(FORWARDED_POINTER)
    // Used by the helpers only (glib/ghash.h, glib/gstrfuncs.h, glib/glist.h).
    GHashTable *(*g_hash_table_new_full)(guint (*hash)(gconstpointer), gboolean (*equal)(gconstpointer, gconstpointer),
                                         void (*free_key)(gpointer), void (*free_value)(gpointer));
    gboolean (*g_hash_table_insert)(GHashTable *table, gpointer key, gpointer value);
    guint (*g_str_hash)(gconstpointer string);
    gboolean (*g_str_equal)(gconstpointer first, gconstpointer second);
    gchar *(*g_strdup)(const gchar *string);
    void (*g_list_free_full)(GList *list, void (*free_data)(gpointer));
} library;

#define SYMBOL(name) {#name, &library.name},
static const authvault_library_symbol symbols[] = {
    FORWARDED_FUNCTIONS(SYMBOL)
    SYMBOL(g_hash_table_new_full) SYMBOL(g_hash_table_insert) SYMBOL(g_str_hash) SYMBOL(g_str_equal)
    SYMBOL(g_strdup) SYMBOL(g_list_free_full)
};
static const authvault_library description = {
    .soname = "libsecret-1.so.0", .library_name = "libsecret", .install_hint = "apt-get install libsecret-1-0"};
AUTHVAULT_LAZY_LIBRARY(authvault_secret_load_error, description, symbols, library)

GCancellable *authvault_g_cancellable_new(void) { return loaded()->g_cancellable_new(); }
gboolean authvault_g_cancellable_is_cancelled(GCancellable *cancellable) {
    return loaded()->g_cancellable_is_cancelled(cancellable);
}
void authvault_g_cancellable_cancel(GCancellable *cancellable) { loaded()->g_cancellable_cancel(cancellable); }
void authvault_g_object_unref(gpointer object) { loaded()->g_object_unref(object); }
void authvault_g_free(gpointer memory) { loaded()->g_free(memory); }
GList *authvault_g_list_append(GList *list, gpointer data) { return loaded()->g_list_append(list, data); }
void authvault_g_list_free(GList *list) { loaded()->g_list_free(list); }
gpointer authvault_g_hash_table_lookup(GHashTable *table, gconstpointer key) {
    return loaded()->g_hash_table_lookup(table, key);
}
void authvault_g_hash_table_unref(GHashTable *table) { loaded()->g_hash_table_unref(table); }
void authvault_g_error_free(GError *error) { loaded()->g_error_free(error); }
GQuark authvault_g_io_error_quark(void) { return loaded()->g_io_error_quark(); }
GQuark authvault_g_dbus_error_quark(void) { return loaded()->g_dbus_error_quark(); }
const gchar *authvault_g_dbus_proxy_get_object_path(GDBusProxy *proxy) {
    return loaded()->g_dbus_proxy_get_object_path(proxy);
}

SecretService *authvault_secret_service_get_sync(SecretServiceFlags flags, GCancellable *cancellable, GError **error) {
    return loaded()->secret_service_get_sync(flags, cancellable, error);
}
gint authvault_secret_service_unlock_sync(SecretService *service, GList *objects, GCancellable *cancellable,
                                          GList **unlocked, GError **error) {
    return loaded()->secret_service_unlock_sync(service, objects, cancellable, unlocked, error);
}
SecretCollection *authvault_secret_collection_for_alias_sync(SecretService *service, const gchar *alias,
                                                             SecretCollectionFlags flags, GCancellable *cancellable,
                                                             GError **error) {
    return loaded()->secret_collection_for_alias_sync(service, alias, flags, cancellable, error);
}
gboolean authvault_secret_collection_get_locked(SecretCollection *collection) {
    return loaded()->secret_collection_get_locked(collection);
}
gchar *authvault_secret_collection_get_label(SecretCollection *collection) {
    return loaded()->secret_collection_get_label(collection);
}
GList *authvault_secret_collection_search_sync(SecretCollection *collection, const SecretSchema *schema,
                                               GHashTable *attributes, SecretSearchFlags flags,
                                               GCancellable *cancellable, GError **error) {
    return loaded()->secret_collection_search_sync(collection, schema, attributes, flags, cancellable, error);
}
SecretItem *authvault_secret_item_create_sync(SecretCollection *collection, const SecretSchema *schema,
                                              GHashTable *attributes, const gchar *label, SecretValue *value,
                                              SecretItemCreateFlags flags, GCancellable *cancellable, GError **error) {
    return loaded()->secret_item_create_sync(collection, schema, attributes, label, value, flags, cancellable, error);
}
gboolean authvault_secret_item_delete_sync(SecretItem *item, GCancellable *cancellable, GError **error) {
    return loaded()->secret_item_delete_sync(item, cancellable, error);
}
GHashTable *authvault_secret_item_get_attributes(SecretItem *item) {
    return loaded()->secret_item_get_attributes(item);
}
SecretValue *authvault_secret_item_get_secret(SecretItem *item) { return loaded()->secret_item_get_secret(item); }
SecretValue *authvault_secret_value_new(const gchar *secret, gssize length, const gchar *content_type) {
    return loaded()->secret_value_new(secret, length, content_type);
}
const gchar *authvault_secret_value_get(SecretValue *value, gsize *length) {
    return loaded()->secret_value_get(value, length);
}
void authvault_secret_value_unref(gpointer value) { loaded()->secret_value_unref(value); }
SecretSchema *authvault_secret_schema_newv(const gchar *name, SecretSchemaFlags flags,
                                           GHashTable *attribute_names_and_types) {
    return loaded()->secret_schema_newv(name, flags, attribute_names_and_types);
}
GQuark authvault_secret_error_get_quark(void) { return loaded()->secret_error_get_quark(); }
GHashTable *authvault_string_table_new(void) {
    const struct functions *glib = loaded();
    return glib->g_hash_table_new_full(glib->g_str_hash, glib->g_str_equal, glib->g_free, glib->g_free);
}

void authvault_string_table_insert(GHashTable *table, const char *key, const char *value) {
    const struct functions *glib = loaded();
    glib->g_hash_table_insert(table, glib->g_strdup(key), value ? glib->g_strdup(value) : NULL);
}

void authvault_object_list_free(GList *list) {
    const struct functions *glib = loaded();
    glib->g_list_free_full(list, glib->g_object_unref);
}
