#pragma once

/* Tells OpenSSL, in `library` or the libraries it loaded, not to free its state in an exit handler: a worker thread
 * still hashing an image or talking TLS when the main thread returns from the app and calls exit() would otherwise
 * take OpenSSL's freed locks and crash. The process's end frees that memory anyway. Nothing when `library` holds no
 * OpenSSL; only OpenSSL's first initialisation in the process decides, so call it before any other. */
void cshim_openssl_without_exit_cleanup(void *library);
