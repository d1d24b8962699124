// The few GLib and libsecret types and constants that authvault uses, declared here because their headers need
// pkg-config's include paths, which a SwiftPM target can only get from a system-library target, and that would
// link the libraries again. Transcribed from libsecret 0.20 and GLib 2.74 (Debian 12); both keep a stable ABI
// within their sonames (libsecret-1.so.0, libglib-2.0.so.0). Objects are opaque; enums list only the values used.
#ifndef AUTHVAULT_SECRET_TYPES_H
#define AUTHVAULT_SECRET_TYPES_H

#include <stddef.h>
#include <stdint.h>

// glib/gtypes.h, glibconfig.h, glib/gquark.h
typedef char gchar;
typedef int gint;
typedef gint gboolean;
typedef unsigned int guint;
typedef unsigned long gsize;
typedef signed long gssize;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef uint32_t GQuark;

// glib/glist.h
typedef struct _GList GList;
struct _GList {
    gpointer data;
    GList *next;
    GList *prev;
};

// glib/gerror.h
typedef struct _GError GError;
struct _GError {
    GQuark domain;
    gint code;
    gchar *message;
};

typedef struct _GHashTable GHashTable;
typedef struct _GCancellable GCancellable;
typedef struct _GDBusProxy GDBusProxy;

// gio/gioenums.h: GIOErrorEnum, in the domain g_io_error_quark().
typedef enum {
    G_IO_ERROR_CANCELLED = 19,
    G_IO_ERROR_TIMED_OUT = 24,
} GIOErrorEnum;

// gio/gioenums.h: GDBusError, in the domain g_dbus_error_quark().
typedef enum {
    G_DBUS_ERROR_SERVICE_UNKNOWN = 2,
    G_DBUS_ERROR_NAME_HAS_NO_OWNER = 3,
    G_DBUS_ERROR_NO_REPLY = 4,
    G_DBUS_ERROR_NO_SERVER = 11,
    G_DBUS_ERROR_TIMEOUT = 12,
    G_DBUS_ERROR_DISCONNECTED = 15,
    G_DBUS_ERROR_FILE_NOT_FOUND = 17,
    G_DBUS_ERROR_TIMED_OUT = 20,
} GDBusError;

// libsecret's objects (GObjects; SecretValue is a boxed type) and its schema, all used through pointers only.
typedef struct _SecretService SecretService;
typedef struct _SecretCollection SecretCollection;
typedef struct _SecretItem SecretItem;
typedef struct _SecretValue SecretValue;
typedef struct _SecretSchema SecretSchema;

// libsecret/secret-types.h: SecretError, in the domain secret_error_get_quark().
typedef enum {
    SECRET_ERROR_IS_LOCKED = 2,
} SecretError;

// libsecret/secret-types.h
typedef enum {
    SECRET_SEARCH_ALL = 1 << 1,
    SECRET_SEARCH_LOAD_SECRETS = 1 << 3,
} SecretSearchFlags;

// libsecret/secret-service.h
typedef enum {
    SECRET_SERVICE_NONE = 0,
    SECRET_SERVICE_OPEN_SESSION = 1 << 1,
} SecretServiceFlags;

// libsecret/secret-collection.h
typedef enum {
    SECRET_COLLECTION_NONE = 0,
} SecretCollectionFlags;

// libsecret/secret-item.h
typedef enum {
    SECRET_ITEM_CREATE_REPLACE = 1 << 1,
} SecretItemCreateFlags;

// libsecret/secret-schema.h
typedef enum {
    SECRET_SCHEMA_NONE = 0,
} SecretSchemaFlags;

#endif
