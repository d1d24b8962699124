// libdbus as seen from Swift, loaded on first use: the Secret Service's plain read (TokenVault's
// SecretServicePlainLookup) talks to the session bus through it, synchronously on the calling thread, with no
// thread, main loop or GLib of its own. The binary does not link libdbus: the authvault_* wrappers call into
// libdbus-1.so.3 once DBusLibrary.c has opened it. Each wrapper has the signature of the function it is named after.
// No varargs calls: messages are built and read with the iterator API.
#ifndef AUTHVAULT_CDBUS_H
#define AUTHVAULT_CDBUS_H

#include "DBusTypes.h"

/// Loads libdbus once per process (thread-safe). NULL when it is ready; otherwise why it is not. Every other
/// wrapper requires a NULL answer first: called after a failure, they end the process.
const char *authvault_dbus_load_error(void);

void authvault_dbus_error_init(DBusError *error);
void authvault_dbus_error_free(DBusError *error);
DBusConnection *authvault_dbus_bus_get_private(DBusBusType type, DBusError *error);
void authvault_dbus_connection_set_exit_on_disconnect(DBusConnection *connection, dbus_bool_t exit_on_disconnect);
void authvault_dbus_connection_close(DBusConnection *connection);
void authvault_dbus_connection_unref(DBusConnection *connection);
DBusMessage *authvault_dbus_connection_send_with_reply_and_block(DBusConnection *connection, DBusMessage *message,
                                                                 int timeout_milliseconds, DBusError *error);
DBusMessage *authvault_dbus_message_new_method_call(const char *destination, const char *path, const char *interface,
                                                    const char *method);
void authvault_dbus_message_unref(DBusMessage *message);
void authvault_dbus_message_iter_init_append(DBusMessage *message, DBusMessageIter *iter);
dbus_bool_t authvault_dbus_message_iter_append_basic(DBusMessageIter *iter, int type, const void *value);
dbus_bool_t authvault_dbus_message_iter_open_container(DBusMessageIter *iter, int type, const char *contained_signature,
                                                       DBusMessageIter *sub);
dbus_bool_t authvault_dbus_message_iter_close_container(DBusMessageIter *iter, DBusMessageIter *sub);
dbus_bool_t authvault_dbus_message_iter_init(DBusMessage *message, DBusMessageIter *iter);
int authvault_dbus_message_iter_get_arg_type(DBusMessageIter *iter);
void authvault_dbus_message_iter_recurse(DBusMessageIter *iter, DBusMessageIter *sub);
dbus_bool_t authvault_dbus_message_iter_next(DBusMessageIter *iter);
void authvault_dbus_message_iter_get_basic(DBusMessageIter *iter, void *value);
void authvault_dbus_message_iter_get_fixed_array(DBusMessageIter *iter, void *value, int *n_elements);
int authvault_dbus_message_iter_get_element_type(DBusMessageIter *iter);

#endif
