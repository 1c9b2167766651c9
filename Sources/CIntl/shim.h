/* gettext and locales, part of glibc: Swift's Glibc module leaves libintl.h out. */
#include <libintl.h>
#include <locale.h>
