// libcurl as seen from Swift. curl_easy_setopt and curl_easy_getinfo are varargs and cannot be
// called from Swift, so each argument type gets a typed wrapper here.
#ifndef AUTHVAULT_CCURL_SHIM_H
#define AUTHVAULT_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*authvault_curl_data_callback)(char *data, size_t size, size_t count, void *context);
// CURLOPT_XFERINFOFUNCTION: return non-zero to abort the transfer (used for task cancellation).
typedef int (*authvault_curl_xferinfo_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                                curl_off_t upload_total, curl_off_t upload_now);

static inline CURLcode authvault_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode authvault_curl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode authvault_curl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode authvault_curl_setopt_slist(CURL *curl, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode authvault_curl_setopt_callback(CURL *curl, CURLoption option, authvault_curl_data_callback value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode authvault_curl_setopt_xferinfo(CURL *curl, authvault_curl_xferinfo_callback value) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode authvault_curl_setopt_off(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode authvault_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
static inline CURLcode authvault_curl_getinfo_double(CURL *curl, CURLINFO info, double *value) {
    return curl_easy_getinfo(curl, info, value);
}

#endif
