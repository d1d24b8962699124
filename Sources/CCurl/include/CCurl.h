// libcurl as seen from Swift, loaded on first use. The types and constants come from libcurl's own header; the
// functions are reached only through the authvault_curl_* wrappers below, which call into libcurl.so.4 once
// CurlLibrary.c has opened it. Calling a curl_* function directly would fail to link: the binary does not link
// libcurl, so `authvault --version` or `authvault token` with a fresh token never loads it and its dependencies.
// curl_easy_setopt and curl_easy_getinfo are varargs and cannot be called from Swift, so each argument type gets
// a typed wrapper.
#ifndef AUTHVAULT_CCURL_H
#define AUTHVAULT_CCURL_H

#include <curl/curl.h>

/// Loads libcurl and runs curl_global_init, once per process (thread-safe). NULL when libcurl is ready;
/// otherwise why it is not, for the user ("libcurl is not available (...); install it with: ..."). Every other
/// wrapper requires a NULL answer first: called after a failure, they end the process.
const char *authvault_curl_load_error(void);

CURL *authvault_curl_easy_init(void);
void authvault_curl_easy_cleanup(CURL *curl);
void authvault_curl_easy_reset(CURL *curl);
CURLcode authvault_curl_easy_perform(CURL *curl);
const char *authvault_curl_easy_strerror(CURLcode code);
struct curl_slist *authvault_curl_slist_append(struct curl_slist *list, const char *line);
void authvault_curl_slist_free_all(struct curl_slist *list);

typedef size_t (*authvault_curl_data_callback)(char *data, size_t size, size_t count, void *context);
// CURLOPT_XFERINFOFUNCTION: return non-zero to abort the transfer (used for task cancellation).
typedef int (*authvault_curl_xferinfo_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                                curl_off_t upload_total, curl_off_t upload_now);

CURLcode authvault_curl_setopt_long(CURL *curl, CURLoption option, long value);
CURLcode authvault_curl_setopt_string(CURL *curl, CURLoption option, const char *value);
CURLcode authvault_curl_setopt_pointer(CURL *curl, CURLoption option, void *value);
CURLcode authvault_curl_setopt_slist(CURL *curl, CURLoption option, struct curl_slist *value);
CURLcode authvault_curl_setopt_callback(CURL *curl, CURLoption option, authvault_curl_data_callback value);
CURLcode authvault_curl_setopt_xferinfo(CURL *curl, authvault_curl_xferinfo_callback value);
CURLcode authvault_curl_setopt_off(CURL *curl, CURLoption option, curl_off_t value);
CURLcode authvault_curl_getinfo_long(CURL *curl, CURLINFO info, long *value);

#endif
