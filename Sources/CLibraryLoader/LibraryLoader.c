#include "CLibraryLoader.h"

#include <dlfcn.h>
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

void authvault_library_misuse(const char *library_name, const char *load_error) {
    fprintf(stderr, "authvault: internal error: %s called although it failed to load: %s\n", library_name,
            load_error);
    abort();
}
