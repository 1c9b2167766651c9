/* gettext and locales, part of glibc: Swift's Glibc module leaves libintl.h out. */
#include <libintl.h>
#include <locale.h>
#include <stdio.h>

/* `value` as the C library's LC_NUMERIC groups its digits ("12 345" in French): printf's ' flag, which Swift cannot
   pass to a variadic function. Numbers are written this way, as GLib and GNOME's apps write them, so that writing one
   loads no ICU data. */
static inline int cintl_format_grouped(char *buffer, size_t size, long value) {
    return snprintf(buffer, size, "%'ld", value);
}

/* `value` with one digit after the LC_NUMERIC decimal point ("0,8" in French). */
static inline int cintl_format_tenths(char *buffer, size_t size, double value) {
    return snprintf(buffer, size, "%.1f", value);
}
