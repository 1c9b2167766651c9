#include "cshim.h"
#include "openssl_exit.h"

#include <dlfcn.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <string.h>

/* libcurl is opened by the first download, not linked: linked, it and the libraries it needs (GnuTLS, Kerberos,
 * LDAP, libssh2, librtmp…) are loaded and their constructors run at every launch, pages a launch that downloads
 * nothing never uses. */
static struct {
    CURLcode (*global_init)(long flags);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_pause)(CURL *handle, int mask);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    /* libssl's, which libcurl loads when OpenSSL is its TLS library (NULL with another). */
    int (*ssl_is_init_finished)(const SSL *ssl);
    void (*ssl_get0_alpn_selected)(const SSL *ssl, const unsigned char **protocol, unsigned int *length);
} curl;

static pthread_once_t curl_opened = PTHREAD_ONCE_INIT;

static void *curl_symbol(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL) {
        g_error("libcurl has no %s: %s", name, dlerror());
    }
    return symbol;
}

static void open_curl(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        g_error("libcurl could not be opened: %s", dlerror());
    }
    /* Before curl_global_init, which initialises the OpenSSL it loaded (when OpenSSL is its TLS library). */
    cshim_openssl_without_exit_cleanup(library);
    curl.global_init = curl_symbol(library, "curl_global_init");
    curl.multi_init = curl_symbol(library, "curl_multi_init");
    curl.multi_setopt = curl_symbol(library, "curl_multi_setopt");
    curl.multi_add_handle = curl_symbol(library, "curl_multi_add_handle");
    curl.multi_remove_handle = curl_symbol(library, "curl_multi_remove_handle");
    curl.multi_perform = curl_symbol(library, "curl_multi_perform");
    curl.multi_info_read = curl_symbol(library, "curl_multi_info_read");
    curl.multi_poll = curl_symbol(library, "curl_multi_poll");
    curl.easy_init = curl_symbol(library, "curl_easy_init");
    curl.easy_cleanup = curl_symbol(library, "curl_easy_cleanup");
    curl.easy_pause = curl_symbol(library, "curl_easy_pause");
    curl.easy_setopt = curl_symbol(library, "curl_easy_setopt");
    curl.easy_getinfo = curl_symbol(library, "curl_easy_getinfo");
    curl.ssl_is_init_finished = dlsym(library, "SSL_is_init_finished");
    curl.ssl_get0_alpn_selected = dlsym(library, "SSL_get0_alpn_selected");
}

CURLcode cshim_curl_global_init(long flags) {
    pthread_once(&curl_opened, open_curl);
    return curl.global_init(flags);
}

CURLM *cshim_curl_multi_init(void) {
    return curl.multi_init();
}

CURLMcode cshim_curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return curl.multi_add_handle(multi, handle);
}

CURLMcode cshim_curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return curl.multi_remove_handle(multi, handle);
}

CURLMcode cshim_curl_multi_perform(CURLM *multi, int *running) {
    return curl.multi_perform(multi, running);
}

CURLMsg *cshim_curl_multi_info_read(CURLM *multi, int *queued) {
    return curl.multi_info_read(multi, queued);
}

CURLMcode cshim_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout) {
    return curl.multi_poll(multi, extra, count, timeout, NULL);
}

CURL *cshim_curl_easy_init(void) {
    return curl.easy_init();
}

void cshim_curl_easy_cleanup(CURL *handle) {
    curl.easy_cleanup(handle);
}

CURLcode cshim_curl_easy_pause(CURL *handle, int mask) {
    return curl.easy_pause(handle, mask);
}

CURLcode cshim_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode cshim_curl_setopt_ptr(CURL *handle, CURLoption option, const void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode cshim_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode cshim_curl_setopt_write(CURL *handle,
                                 size_t (*callback)(char *data, size_t size, size_t count, void *user)) {
    return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

CURLcode cshim_curl_setopt_xferinfo(CURL *handle,
                                    int (*callback)(void *user, curl_off_t dltotal, curl_off_t dlnow,
                                                    curl_off_t ultotal, curl_off_t ulnow)) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode cshim_curl_setopt_prereq(CURL *handle, int (*callback)(void *user, char *primary_ip, char *local_ip,
                                                                 int primary_port, int local_port)) {
    return curl.easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}

CURLMcode cshim_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl.multi_setopt(multi, option, value);
}

CURLcode cshim_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode cshim_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode cshim_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl.easy_getinfo(handle, info, value);
}

CShimHandshake cshim_curl_handshake(CURL *handle) {
    struct curl_tlssessioninfo *session = NULL;
    if (curl.easy_getinfo(handle, CURLINFO_TLS_SSL_PTR, &session) != CURLE_OK || session == NULL ||
        session->backend != CURLSSLBACKEND_OPENSSL || session->internals == NULL ||
        curl.ssl_is_init_finished == NULL || curl.ssl_get0_alpn_selected == NULL ||
        !curl.ssl_is_init_finished(session->internals)) {
        return CSHIM_HANDSHAKE_PENDING;
    }
    const unsigned char *protocol = NULL;
    unsigned int length = 0;
    curl.ssl_get0_alpn_selected(session->internals, &protocol, &length);
    return length == 2 && memcmp(protocol, "h2", 2) == 0 ? CSHIM_HANDSHAKE_HTTP2 : CSHIM_HANDSHAKE_OTHER;
}
