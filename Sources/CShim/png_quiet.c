#include "png_quiet.h"

void cshim_png_ignore_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

void cshim_png_fail_quietly(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

int cshim_png_start_read(png_structp *png, png_infop *info) {
    *png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, cshim_png_fail_quietly, cshim_png_ignore_warning);
    *info = *png ? png_create_info_struct(*png) : NULL;
    if (*info == NULL) {
        png_destroy_read_struct(png, NULL, NULL);
        return 0;
    }
    return 1;
}
