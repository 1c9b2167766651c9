#include "cshim.h"
#include "openssl_exit.h"

#include <dlfcn.h>
#include <openssl/crypto.h>
#include <openssl/macros.h>
#include <openssl/opensslv.h>
#include <pthread.h>

/* OpenSSL's libcrypto is opened by the first digest of an image's bytes, not linked: linked, its relocated pages
 * (about 1.5 MiB) are part of every launch, and most launches hash nothing before their first screen. */
static unsigned char *(*sha256)(const unsigned char *data, size_t length, unsigned char *digest);

static pthread_once_t crypto_opened = PTHREAD_ONCE_INIT;

static void open_crypto(void) {
    const char *name = "libcrypto.so." OPENSSL_MSTR(OPENSSL_SHLIB_VERSION);
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        g_error("%s could not be opened: %s", name, dlerror());
    }
    cshim_openssl_without_exit_cleanup(library);
    sha256 = dlsym(library, "SHA256");
    if (sha256 == NULL) {
        g_error("%s has no SHA256: %s", name, dlerror());
    }
}

void cshim_sha256(const void *data, size_t length, unsigned char *digest) {
    pthread_once(&crypto_opened, open_crypto);
    sha256(data, length, digest);
}

void cshim_openssl_without_exit_cleanup(void *library) {
    __typeof__(OPENSSL_init_crypto) *initialise = dlsym(library, "OPENSSL_init_crypto");
    if (initialise != NULL) {
        initialise(OPENSSL_INIT_NO_ATEXIT, NULL);
    }
}
