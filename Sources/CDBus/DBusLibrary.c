// Opens libdbus-1.so.3 on first use and forwards the wrappers of CDBus.h to it. The wrappers have names of our own:
// a function named like one of libdbus's would be what libraries loaded later bind to.
#include "CDBus.h"

#include <CLibraryLoader.h>

// The functions behind the wrappers, each typed by its wrapper's prototype (the same signature).
#define FORWARDED_FUNCTIONS(X) \
    X(dbus_error_init) X(dbus_error_free) X(dbus_bus_get_private) X(dbus_connection_set_exit_on_disconnect) \
    X(dbus_connection_close) X(dbus_connection_unref) X(dbus_connection_send_with_reply_and_block) \
    X(dbus_message_new_method_call) X(dbus_message_unref) X(dbus_message_iter_init_append) \
    X(dbus_message_iter_append_basic) X(dbus_message_iter_open_container) X(dbus_message_iter_close_container) \
    X(dbus_message_iter_init) X(dbus_message_iter_get_arg_type) X(dbus_message_iter_recurse) \
    X(dbus_message_iter_next) X(dbus_message_iter_get_basic) X(dbus_message_iter_get_fixed_array) \
    X(dbus_message_iter_get_element_type)

static struct {
#define FORWARDED_POINTER(name) __typeof__(authvault_##name) *name;
    FORWARDED_FUNCTIONS(FORWARDED_POINTER)
} library;

#define SYMBOL(name) {#name, &library.name},
static const authvault_library_symbol symbols[] = {FORWARDED_FUNCTIONS(SYMBOL)};
static const authvault_library description = {
    .soname = "libdbus-1.so.3", .library_name = "libdbus", .install_hint = "apt-get install libdbus-1-3"};
AUTHVAULT_LAZY_LIBRARY(authvault_dbus_load_error, description, symbols, library)

void authvault_dbus_error_init(DBusError *error) { loaded()->dbus_error_init(error); }
void authvault_dbus_error_free(DBusError *error) { loaded()->dbus_error_free(error); }
DBusConnection *authvault_dbus_bus_get_private(DBusBusType type, DBusError *error) {
    return loaded()->dbus_bus_get_private(type, error);
}
void authvault_dbus_connection_set_exit_on_disconnect(DBusConnection *connection, dbus_bool_t exit_on_disconnect) {
    loaded()->dbus_connection_set_exit_on_disconnect(connection, exit_on_disconnect);
}
void authvault_dbus_connection_close(DBusConnection *connection) { loaded()->dbus_connection_close(connection); }
void authvault_dbus_connection_unref(DBusConnection *connection) { loaded()->dbus_connection_unref(connection); }
DBusMessage *authvault_dbus_connection_send_with_reply_and_block(DBusConnection *connection, DBusMessage *message,
                                                                 int timeout_milliseconds, DBusError *error) {
    return loaded()->dbus_connection_send_with_reply_and_block(connection, message, timeout_milliseconds, error);
}
DBusMessage *authvault_dbus_message_new_method_call(const char *destination, const char *path, const char *interface,
                                                    const char *method) {
    return loaded()->dbus_message_new_method_call(destination, path, interface, method);
}
void authvault_dbus_message_unref(DBusMessage *message) { loaded()->dbus_message_unref(message); }
void authvault_dbus_message_iter_init_append(DBusMessage *message, DBusMessageIter *iter) {
    loaded()->dbus_message_iter_init_append(message, iter);
}
dbus_bool_t authvault_dbus_message_iter_append_basic(DBusMessageIter *iter, int type, const void *value) {
    return loaded()->dbus_message_iter_append_basic(iter, type, value);
}
dbus_bool_t authvault_dbus_message_iter_open_container(DBusMessageIter *iter, int type, const char *contained_signature,
                                                       DBusMessageIter *sub) {
    return loaded()->dbus_message_iter_open_container(iter, type, contained_signature, sub);
}
dbus_bool_t authvault_dbus_message_iter_close_container(DBusMessageIter *iter, DBusMessageIter *sub) {
    return loaded()->dbus_message_iter_close_container(iter, sub);
}
dbus_bool_t authvault_dbus_message_iter_init(DBusMessage *message, DBusMessageIter *iter) {
    return loaded()->dbus_message_iter_init(message, iter);
}
int authvault_dbus_message_iter_get_arg_type(DBusMessageIter *iter) {
    return loaded()->dbus_message_iter_get_arg_type(iter);
}
void authvault_dbus_message_iter_recurse(DBusMessageIter *iter, DBusMessageIter *sub) {
    loaded()->dbus_message_iter_recurse(iter, sub);
}
dbus_bool_t authvault_dbus_message_iter_next(DBusMessageIter *iter) { return loaded()->dbus_message_iter_next(iter); }
void authvault_dbus_message_iter_get_basic(DBusMessageIter *iter, void *value) {
    loaded()->dbus_message_iter_get_basic(iter, value);
}
void authvault_dbus_message_iter_get_fixed_array(DBusMessageIter *iter, void *value, int *n_elements) {
    loaded()->dbus_message_iter_get_fixed_array(iter, value, n_elements);
}
int authvault_dbus_message_iter_get_element_type(DBusMessageIter *iter) {
    return loaded()->dbus_message_iter_get_element_type(iter);
}
