// Opens libcurl.so.4 on first use and forwards the wrappers of CCurl.h to it. The wrappers have names of our own:
// a function named like one of libcurl's would be what the loaded library binds to.
#include "CCurl.h"

#include <CLibraryLoader.h>
#include <stdio.h>

// Every libcurl function called, each typed by libcurl's own prototype (curl_easy_setopt is the varargs one).
#define CURL_FUNCTIONS(X) \
    X(global_init) X(easy_init) X(easy_cleanup) X(easy_reset) X(easy_perform) X(easy_strerror) \
    X(easy_setopt) X(easy_getinfo) X(slist_append) X(slist_free_all)

static struct functions {
#define CURL_POINTER(name) __typeof__(curl_##name) *name;
    CURL_FUNCTIONS(CURL_POINTER)
} library;

/// Run once libcurl is loaded: NULL, or `message` filled with why libcurl cannot be used.
static const char *initialize(char *message, size_t message_size) {
    // curl_global_init initializes OpenSSL for libcurl's TLS: OpenSSL's exit-time clean-up must be off by then.
    authvault_openssl_initialize();
    // Must run once before any other libcurl call: the load's pthread_once makes it so.
    CURLcode code = library.global_init(CURL_GLOBAL_ALL);
    if (code != CURLE_OK) {
        snprintf(message, message_size, "libcurl failed to initialize: %s", library.easy_strerror(code));
        return message;
    }
    // The system's TLS settings (openssl.cnf), which the initialization above left unread.
    authvault_openssl_load_config();
    return NULL;
}

#define CURL_SYMBOL(name) {"curl_" #name, &library.name},
static const authvault_library_symbol symbols[] = {CURL_FUNCTIONS(CURL_SYMBOL)};
static const authvault_library description = {
    .soname = "libcurl.so.4", .library_name = "libcurl", .install_hint = "apt-get install libcurl4",
    .initialize = initialize};
AUTHVAULT_LAZY_LIBRARY(authvault_curl_load_error, description, symbols, library)

CURL *authvault_curl_easy_init(void) { return loaded()->easy_init(); }
void authvault_curl_easy_cleanup(CURL *handle) { loaded()->easy_cleanup(handle); }
void authvault_curl_easy_reset(CURL *handle) { loaded()->easy_reset(handle); }
CURLcode authvault_curl_easy_perform(CURL *handle) { return loaded()->easy_perform(handle); }
const char *authvault_curl_easy_strerror(CURLcode code) { return loaded()->easy_strerror(code); }
struct curl_slist *authvault_curl_slist_append(struct curl_slist *list, const char *line) {
    return loaded()->slist_append(list, line);
}
void authvault_curl_slist_free_all(struct curl_slist *list) { loaded()->slist_free_all(list); }

// curl_easy_setopt reads its third argument as the type the option expects: each wrapper passes exactly that type.
CURLcode authvault_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return loaded()->easy_setopt(handle, option, value);
}
CURLcode authvault_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return loaded()->easy_setopt(handle, option, value);
}
CURLcode authvault_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return loaded()->easy_setopt(handle, option, value);
}
CURLcode authvault_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return loaded()->easy_setopt(handle, option, value);
}
CURLcode authvault_curl_setopt_callback(CURL *handle, CURLoption option, authvault_curl_data_callback value) {
    return loaded()->easy_setopt(handle, option, value);
}
CURLcode authvault_curl_setopt_xferinfo(CURL *handle, authvault_curl_xferinfo_callback value) {
    return loaded()->easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
CURLcode authvault_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return loaded()->easy_setopt(handle, option, value);
}
CURLcode authvault_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return loaded()->easy_getinfo(handle, info, value);
}
