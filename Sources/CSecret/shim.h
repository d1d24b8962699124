// libsecret (and the GLib it stands on) as seen from Swift. The varargs calls (secret_password_store_sync and
// friends, secret_schema_new) cannot be called from Swift: use the ...v variants with a GHashTable, or add a
// static inline wrapper here.
#ifndef AUTHVAULT_CSECRET_SHIM_H
#define AUTHVAULT_CSECRET_SHIM_H

#include <libsecret/secret.h>

#endif
