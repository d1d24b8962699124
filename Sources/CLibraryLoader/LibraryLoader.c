#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <openssl/conf.h>
#include <openssl/crypto.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Opens the library and resolves every symbol: NULL, or `message` filled with why not.
static const char *open_library(const char *soname, const char *library_name, const char *install_hint,
                                const authvault_library_symbol *symbols, size_t count, char *message,
                                size_t message_size) {
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

void authvault_library_load(const authvault_library *library, const authvault_library_symbol *symbols, size_t count,
                            authvault_library_state *state) {
    if (library->prepare != NULL) library->prepare();
    state->error = open_library(library->soname, library->library_name, library->install_hint, symbols, count,
                                state->message, sizeof state->message);
    if (state->error == NULL && library->initialize != NULL)
        state->error = library->initialize(state->message, sizeof state->message);
}

/// libcrypto, opened once and never closed (as above); NULL when it fails to load, which the loader that needs it
/// reports.
static void *openssl_handle;

static void open_openssl(void) { openssl_handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL); }

static void *openssl_library(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, open_openssl);
    return openssl_handle;
}

static void initialize_openssl(void) {
    __typeof__(OPENSSL_init_crypto) *init_crypto;
    void *address = openssl_library() ? dlsym(openssl_library(), "OPENSSL_init_crypto") : NULL;
    if (address == NULL) return;
    memcpy(&init_crypto, &address, sizeof address);
    // Only the first initialization's choice counts; this must be it. openssl.cnf configures TLS (and providers
    // the vault's AES-GCM, HMAC and scrypt never need): it is read only when libcurl is loaded, below.
    // No legacy cipher table (EVP_get_cipherbyname's): filling it, and the first fetch copying its names into the
    // name map, is 2.5 M instructions of a warm token's 16 M (callgrind). Every cipher is fetched by the names its
    // provider gives (ours, and libssl's by short name); the digest table stays, as certificate checks look digests
    // up by NID (without it a chain's signatures fail verification: HTTPTransportTests' TLS tests hold it).
    init_crypto(OPENSSL_INIT_NO_ATEXIT | OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_ADD_ALL_CIPHERS, NULL);
}

void authvault_openssl_initialize(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, initialize_openssl);
}

static void load_openssl_config(void) {
    __typeof__(CONF_modules_load_file) *load_file;
    void *address = openssl_library() ? dlsym(openssl_library(), "CONF_modules_load_file") : NULL;
    if (address == NULL) return;
    memcpy(&load_file, &address, sizeof address);
    // OpenSSL's own default: the file at OPENSSL_CONF or the system's, its "openssl_conf" section, a missing file
    // or a failing module ignored, as OPENSSL_INIT_LOAD_CONFIG would have loaded it.
    load_file(NULL, NULL, CONF_MFLAGS_DEFAULT_SECTION | CONF_MFLAGS_IGNORE_MISSING_FILE | CONF_MFLAGS_IGNORE_RETURN_CODES);
}

void authvault_openssl_load_config(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load_openssl_config);
}

void authvault_library_misuse(const char *library_name, const char *load_error) {
    fprintf(stderr, "authvault: internal error: %s called although it failed to load: %s\n", library_name,
            load_error);
    abort();
}
