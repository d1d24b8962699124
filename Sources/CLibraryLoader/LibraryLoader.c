#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <openssl/crypto.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *authvault_library_load(const char *soname, const char *library_name, const char *install_hint,
                                   const authvault_library_symbol *symbols, size_t count,
                                   char *message, size_t message_size) {
    // Local: the library's symbols must not satisfy later lookups of anyone else. Never closed: GLib and
    // libcurl keep global state (types, TLS contexts) that cannot be unloaded.
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(message, message_size, "%s is not available (%s); install it with: %s", library_name, dlerror(),
                 install_hint);
        return message;
    }
    for (size_t index = 0; index < count; index++) {
        // Searches the library and the libraries it depends on (GLib's functions come through libsecret).
        void *address = dlsym(library, symbols[index].name);
        if (address == NULL) {
            snprintf(message, message_size, "%s is too old or damaged (%s); reinstall or upgrade it with: %s",
                     library_name, dlerror(), install_hint);
            return message;
        }
        // POSIX gives function pointers the representation of void *; memcpy writes one without type punning.
        memcpy(symbols[index].function_pointer, &address, sizeof address);
    }
    return NULL;
}

static void keep_openssl_at_exit(void) {
    // Never closed, as above. A libcrypto that fails to load is reported by the loader that needs it.
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    __typeof__(OPENSSL_init_crypto) *init_crypto;
    void *address = dlsym(library, "OPENSSL_init_crypto");
    if (address == NULL) return;
    memcpy(&init_crypto, &address, sizeof address);
    // Only the first initialization's choice counts; this must be it.
    init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

void authvault_openssl_keep_at_exit(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, keep_openssl_at_exit);
}

void authvault_library_misuse(const char *library_name, const char *load_error) {
    fprintf(stderr, "authvault: internal error: %s called although it failed to load: %s\n", library_name,
            load_error);
    abort();
}
