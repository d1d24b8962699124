// libsecret and GLib as seen from Swift, loaded on first use. The binary does not link them: the authvault_*
// wrappers below call into libsecret-1.so.0 (and the GLib it pulls in) once SecretLibrary.c has opened it, so a
// command that never touches the keyring never maps GLib. Each wrapper has the signature of the function it is
// named after. The varargs calls (secret_password_store_sync and friends, secret_schema_new) are not offered:
// use the ...v variants with a GHashTable.
#ifndef AUTHVAULT_CSECRET_H
#define AUTHVAULT_CSECRET_H

#include "SecretTypes.h"

/// Loads libsecret once per process (thread-safe). NULL when it is ready; otherwise why it is not, for the user
/// ("libsecret is not available (...); install it with: ..."). Every other wrapper requires a NULL answer first:
/// called after a failure, they end the process.
const char *authvault_secret_load_error(void);

// GLib, GObject, GIO
GCancellable *authvault_g_cancellable_new(void);
gboolean authvault_g_cancellable_is_cancelled(GCancellable *cancellable);
void authvault_g_cancellable_cancel(GCancellable *cancellable);
void authvault_g_object_unref(gpointer object);
void authvault_g_free(gpointer memory);
GList *authvault_g_list_append(GList *list, gpointer data);
void authvault_g_list_free(GList *list);
gpointer authvault_g_hash_table_lookup(GHashTable *table, gconstpointer key);
void authvault_g_hash_table_unref(GHashTable *table);
void authvault_g_error_free(GError *error);
GQuark authvault_g_io_error_quark(void);
GQuark authvault_g_dbus_error_quark(void);
const gchar *authvault_g_dbus_proxy_get_object_path(GDBusProxy *proxy);

// libsecret
SecretService *authvault_secret_service_get_sync(SecretServiceFlags flags, GCancellable *cancellable, GError **error);
gint authvault_secret_service_unlock_sync(SecretService *service, GList *objects, GCancellable *cancellable,
                                          GList **unlocked, GError **error);
SecretCollection *authvault_secret_collection_for_alias_sync(SecretService *service, const gchar *alias,
                                                             SecretCollectionFlags flags, GCancellable *cancellable,
                                                             GError **error);
gboolean authvault_secret_collection_get_locked(SecretCollection *collection);
gchar *authvault_secret_collection_get_label(SecretCollection *collection);
GList *authvault_secret_collection_search_sync(SecretCollection *collection, const SecretSchema *schema,
                                               GHashTable *attributes, SecretSearchFlags flags,
                                               GCancellable *cancellable, GError **error);
SecretItem *authvault_secret_item_create_sync(SecretCollection *collection, const SecretSchema *schema,
                                              GHashTable *attributes, const gchar *label, SecretValue *value,
                                              SecretItemCreateFlags flags, GCancellable *cancellable, GError **error);
gboolean authvault_secret_item_delete_sync(SecretItem *item, GCancellable *cancellable, GError **error);
GHashTable *authvault_secret_item_get_attributes(SecretItem *item);
SecretValue *authvault_secret_item_get_secret(SecretItem *item);
SecretValue *authvault_secret_value_new(const gchar *secret, gssize length, const gchar *content_type);
const gchar *authvault_secret_value_get(SecretValue *value, gsize *length);
void authvault_secret_value_unref(gpointer value);
SecretSchema *authvault_secret_schema_newv(const gchar *name, SecretSchemaFlags flags,
                                           GHashTable *attribute_names_and_types);
GQuark authvault_secret_error_get_quark(void);

// Helpers for what Swift cannot pass itself (GLib's function pointers).

/// A string-to-string table that owns copies of its keys and values (attribute sets, schema definitions).
GHashTable *authvault_string_table_new(void);
/// Inserts copies of `key` and `value`; a NULL value stays NULL.
void authvault_string_table_insert(GHashTable *table, const char *key, const char *value);
/// Releases a list of GObjects (search results, unlocked objects) and the objects.
void authvault_object_list_free(GList *list);

#endif
