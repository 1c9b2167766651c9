#include "cgtkshim.h"
#include <string.h>

/* The display-side half of image_surfaces.c: the copy talks to GDK, so it is made on the GUI thread. */

cairo_surface_t *cshim_display_image_copy(cairo_surface_t *image) {
    GdkWindow *root = gdk_get_default_root_window();
    const int width = cairo_image_surface_get_width(image);
    const int height = cairo_image_surface_get_height(image);
    double scale_x = 1, scale_y = 1;
    cairo_surface_get_device_scale(image, &scale_x, &scale_y);
    if (root == NULL || width == 0 || height == 0) {
        return cairo_surface_reference(image);
    }
    cairo_surface_t *copy = gdk_window_create_similar_image_surface(
        root, cairo_image_surface_get_format(image), width, height, (int)scale_x);
    if (cairo_surface_status(copy) != CAIRO_STATUS_SUCCESS || cairo_surface_get_type(copy) != CAIRO_SURFACE_TYPE_IMAGE) {
        cairo_surface_destroy(copy);
        return cairo_surface_reference(image);
    }
    cairo_surface_flush(image);
    cairo_surface_flush(copy);
    const guchar *source = cairo_image_surface_get_data(image);
    guchar *target = cairo_image_surface_get_data(copy);
    const int source_stride = cairo_image_surface_get_stride(image);
    const int target_stride = cairo_image_surface_get_stride(copy);
    const gsize row = (gsize)width * 4;
    for (int y = 0; y < height; y++) {
        memcpy(target + (gsize)y * target_stride, source + (gsize)y * source_stride, row);
    }
    cairo_surface_mark_dirty(copy);
    cairo_surface_set_device_scale(copy, scale_x, scale_y);
    return copy;
}
