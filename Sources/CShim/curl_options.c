#include "cshim.h"

#include <openssl/ssl.h>
#include <string.h>

CURLcode cshim_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cshim_curl_setopt_ptr(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cshim_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cshim_curl_setopt_write(CURL *handle,
                                 size_t (*callback)(char *data, size_t size, size_t count, void *user)) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

CURLcode cshim_curl_setopt_xferinfo(CURL *handle,
                                    int (*callback)(void *user, curl_off_t dltotal, curl_off_t dlnow,
                                                    curl_off_t ultotal, curl_off_t ulnow)) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode cshim_curl_setopt_prereq(CURL *handle, int (*callback)(void *user, char *primary_ip, char *local_ip,
                                                                 int primary_port, int local_port)) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}

CURLMcode cshim_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLcode cshim_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode cshim_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode cshim_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CShimHandshake cshim_curl_handshake(CURL *handle) {
    struct curl_tlssessioninfo *session = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_TLS_SSL_PTR, &session) != CURLE_OK || session == NULL ||
        session->backend != CURLSSLBACKEND_OPENSSL || session->internals == NULL ||
        !SSL_is_init_finished(session->internals)) {
        return CSHIM_HANDSHAKE_PENDING;
    }
    const unsigned char *protocol = NULL;
    unsigned int length = 0;
    SSL_get0_alpn_selected(session->internals, &protocol, &length);
    return length == 2 && memcmp(protocol, "h2", 2) == 0 ? CSHIM_HANDSHAKE_HTTP2 : CSHIM_HANDSHAKE_OTHER;
}
