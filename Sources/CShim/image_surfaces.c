#include "cshim.h"
#include <string.h>

/* Decoded pictures are made on worker threads as plain image surfaces, and copied once, on the
 * GUI thread, into images the display reads directly: GDK's own conversion
 * (gdk_cairo_surface_create_from_pixbuf) talks to the display under its locks, which is for the
 * GUI thread alone, and a plain surface would be uploaded again at every paint
 * (Tests/benchmarks/README.md). */

cairo_surface_t *cshim_image_surface_from_pixbuf(const GdkPixbuf *pixbuf) {
    const int width = gdk_pixbuf_get_width(pixbuf);
    const int height = gdk_pixbuf_get_height(pixbuf);
    const int channels = gdk_pixbuf_get_n_channels(pixbuf);
    const gboolean has_alpha = gdk_pixbuf_get_has_alpha(pixbuf);
    const int source_stride = gdk_pixbuf_get_rowstride(pixbuf);
    const guchar *source = gdk_pixbuf_read_pixels(pixbuf);

    cairo_surface_t *surface = cairo_image_surface_create(has_alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24,
                                                          width, height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        return surface;
    }
    cairo_surface_flush(surface);
    guchar *target = cairo_image_surface_get_data(surface);
    const int target_stride = cairo_image_surface_get_stride(surface);

    for (int y = 0; y < height; y++) {
        const guchar *in = source + (gsize)y * source_stride;
        guint32 *out = (guint32 *)(target + (gsize)y * target_stride);
        for (int x = 0; x < width; x++, in += channels) {
            if (has_alpha) {
                /* Cairo stores premultiplied alpha; (v * a + 127) / 255, rounded, as GDK does. */
                const guint alpha = in[3];
                guint r = in[0] * alpha + 0x80, g = in[1] * alpha + 0x80, b = in[2] * alpha + 0x80;
                r = (r + (r >> 8)) >> 8;
                g = (g + (g >> 8)) >> 8;
                b = (b + (b >> 8)) >> 8;
                out[x] = (alpha << 24) | (r << 16) | (g << 8) | b;
            } else {
                out[x] = 0xff000000u | ((guint32)in[0] << 16) | ((guint32)in[1] << 8) | in[2];
            }
        }
    }
    cairo_surface_mark_dirty(surface);
    return surface;
}

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
