/* libcurl's declarations only: the app does not link libcurl but opens it at the first download
 * (CShim's curl_library.c). Debian keeps curl's headers in the multiarch include folder, which the compilers search. */
#include <curl/curl.h>
