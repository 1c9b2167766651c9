#include "cshim.h"
#include <string.h>
#include <sys/mman.h>

/* Decoded pictures are made on worker threads as plain image surfaces, and copied once, on the
 * GUI thread, into images the display reads directly: GDK's own conversion
 * (gdk_cairo_surface_create_from_pixbuf) talks to the display under its locks, which is for the
 * GUI thread alone, and a plain surface would be uploaded again at every paint
 * (Tests/benchmarks/README.md). */

/* A picture kept for a cell is made on a worker and dropped on the GUI thread once its display copy replaces it:
 * its pixels get pages of their own, handed back with the surface, where malloc would keep them resident in the
 * worker's arena beside the copy. */

typedef struct {
    void *pixels;
    size_t size;
} OwnPages;

static const cairo_user_data_key_t own_pages_key;

static void own_pages_unmap(void *data) {
    OwnPages *pages = data;
    munmap(pages->pixels, pages->size);
    g_free(pages);
}

cairo_surface_t *cshim_image_surface_create_own_pages(cairo_format_t format, int width, int height) {
    const int stride = cairo_format_stride_for_width(format, width);
    if (stride <= 0 || width <= 0 || height <= 0) {
        return cairo_image_surface_create(format, width, height);
    }
    const size_t size = (size_t)stride * (size_t)height;
    void *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pixels == MAP_FAILED) {
        return cairo_image_surface_create(format, width, height);
    }
    cairo_surface_t *surface = cairo_image_surface_create_for_data(pixels, format, width, height, stride);
    OwnPages *pages = g_new(OwnPages, 1);
    pages->pixels = pixels;
    pages->size = size;
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS ||
        cairo_surface_set_user_data(surface, &own_pages_key, pages, own_pages_unmap) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        own_pages_unmap(pages);
        return cairo_image_surface_create(format, width, height);
    }
    return surface;
}

cairo_surface_t *cshim_image_surface_from_pixbuf(const GdkPixbuf *pixbuf, gboolean own_pages) {
    const int width = gdk_pixbuf_get_width(pixbuf);
    const int height = gdk_pixbuf_get_height(pixbuf);
    const int channels = gdk_pixbuf_get_n_channels(pixbuf);
    const gboolean has_alpha = gdk_pixbuf_get_has_alpha(pixbuf);
    const int source_stride = gdk_pixbuf_get_rowstride(pixbuf);
    const guchar *source = gdk_pixbuf_read_pixels(pixbuf);

    const cairo_format_t format = has_alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24;
    cairo_surface_t *surface = own_pages ? cshim_image_surface_create_own_pages(format, width, height)
                                         : cairo_image_surface_create(format, width, height);
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
            if (has_alpha && in[3] == 0xff) {
                /* Most pixels of an animation's frame or a photo are opaque: nothing to multiply. */
                out[x] = 0xff000000u | ((guint32)in[0] << 16) | ((guint32)in[1] << 8) | in[2];
            } else if (has_alpha) {
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
