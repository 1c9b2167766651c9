#pragma once
#include <png.h>

/* libpng's handlers for a reader that reports a damaged file as an outcome: warnings are dropped, and an error
 * jumps back to the reader's setjmp without a line on the app's standard error. */
void cshim_png_ignore_warning(png_structp png, png_const_charp message);
void cshim_png_fail_quietly(png_structp png, png_const_charp message);

/* A read struct with those handlers and its info struct; FALSE, with neither left, if they cannot be made. */
int cshim_png_start_read(png_structp *png, png_infop *info);
