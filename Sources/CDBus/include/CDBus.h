// libdbus as seen from Swift, loaded on first use: the Secret Service's plain read (TokenVault's
// SecretServicePlainLookup) talks to the session bus through it, synchronously on the calling thread, with no
// thread, main loop or GLib of its own. The binary does not link libdbus: the authvault_* wrappers call into
// libdbus-1.so.3 once DBusLibrary.c has opened it. Each wrapper has the signature of the function it is named after.
// The types and constants are transcribed from libdbus 1.14 (Debian 12; a stable ABI within the soname), since its
// headers are not a build dependency; only what is used is declared. No varargs calls: messages are built and read
// with the iterator API.
#ifndef AUTHVAULT_CDBUS_H
#define AUTHVAULT_CDBUS_H

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

#endif
