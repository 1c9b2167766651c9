#include "cshim.h"
#include "png_quiet.h"
#include <png.h>
#include <setjmp.h>
#include <string.h>

/* Reads a PNG from memory one row at a time and box-filters each row into the output as it
 * arrives, so memory is the output plus a row however large the image is. The size is checked
 * against the caps before any row is read. */

typedef struct {
    const guchar *data;
    gsize length;
    gsize offset;
} MemoryReader;

static void read_from_memory(png_structp png, png_bytep out, png_size_t count) {
    MemoryReader *reader = png_get_io_ptr(png);
    if (count > reader->length - reader->offset) {
        png_error(png, "truncated");
    }
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

CShimPngResult cshim_png_decode_scaled(const guchar *data, gsize length, gint fit_width, gint fit_height,
                                       gint64 max_pixels, gint max_side, GdkPixbuf **out, gint *width,
                                       gint *height) {
    *out = NULL;
    *width = 0;
    *height = 0;
    if (length < 8 || png_sig_cmp(data, 0, 8) != 0) {
        return CSHIM_PNG_NOT_PNG;
    }
    png_structp png;
    png_infop info;
    if (!cshim_png_start_read(&png, &info)) {
        return CSHIM_PNG_FAILED;
    }
    MemoryReader reader = {data, length, 0};
    /* Everything below that may longjmp back here is declared before it and volatile. */
    guchar *volatile row = NULL;
    guint64 *volatile sums = NULL;
    GdkPixbuf *volatile pixbuf = NULL;
    volatile gboolean read_header = FALSE;
    if (setjmp(png_jmpbuf(png))) {
        g_free(row);
        g_free(sums);
        if (pixbuf != NULL) g_object_unref(pixbuf);
        png_destroy_read_struct(&png, &info, NULL);
        return read_header ? CSHIM_PNG_INCOMPLETE : CSHIM_PNG_FAILED;
    }
    png_set_read_fn(png, &reader, read_from_memory);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_read_info(png, info);
    read_header = TRUE;
    png_uint_32 source_width = png_get_image_width(png, info);
    png_uint_32 source_height = png_get_image_height(png, info);
    *width = (gint)source_width;
    *height = (gint)source_height;
    if (source_width == 0 || source_height == 0 || source_width > (png_uint_32)max_side ||
        source_height > (png_uint_32)max_side || (gint64)source_width * (gint64)source_height > max_pixels) {
        png_destroy_read_struct(&png, &info, NULL);
        return CSHIM_PNG_TOO_LARGE;
    }
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) {
        /* Adam7 spreads each row over seven passes: gdk-pixbuf reads those, within its own caps. */
        png_destroy_read_struct(&png, &info, NULL);
        return CSHIM_PNG_INTERLACED;
    }

    /* Every format becomes 8-bit RGBA. */
    png_set_strip_16(png);
    png_set_packing(png);
    png_set_expand(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_read_update_info(png, info);

    double factor = 1.0;
    if (fit_width > 0 && fit_height > 0) {
        factor = MIN((double)fit_width / source_width, (double)fit_height / source_height);
        if (factor > 1.0) factor = 1.0;
    }
    gint target_width = MAX(1, (gint)(source_width * factor + 0.5));
    gint target_height = MAX(1, (gint)(source_height * factor + 0.5));
    pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, TRUE, 8, target_width, target_height);
    row = g_malloc(png_get_rowbytes(png, info));
    /* Per output pixel of the row being gathered: premultiplied R, G, B, alpha, and a count. */
    sums = g_malloc0(sizeof(guint64) * 5 * (gsize)target_width);
    guchar *pixels = gdk_pixbuf_get_pixels(pixbuf);
    gint stride = gdk_pixbuf_get_rowstride(pixbuf);
    gint target_row = 0;
    for (png_uint_32 y = 0; y < source_height; y++) {
        png_read_row(png, row, NULL);
        gint this_target = (gint)((guint64)y * target_height / source_height);
        for (png_uint_32 x = 0; x < source_width; x++) {
            guint64 *sum = sums + 5 * ((guint64)x * target_width / source_width);
            const guchar *pixel = row + 4 * x;
            sum[0] += (guint64)pixel[0] * pixel[3];
            sum[1] += (guint64)pixel[1] * pixel[3];
            sum[2] += (guint64)pixel[2] * pixel[3];
            sum[3] += pixel[3];
            sum[4] += 1;
        }
        gint next_target = y + 1 < source_height ? (gint)((guint64)(y + 1) * target_height / source_height) : target_height;
        if (next_target != this_target) {
            guchar *out_row = pixels + (gsize)target_row * stride;
            for (gint x = 0; x < target_width; x++) {
                guint64 *sum = sums + 5 * x;
                guint64 alpha = sum[3];
                out_row[4 * x + 0] = alpha ? (guchar)((sum[0] + alpha / 2) / alpha) : 0;
                out_row[4 * x + 1] = alpha ? (guchar)((sum[1] + alpha / 2) / alpha) : 0;
                out_row[4 * x + 2] = alpha ? (guchar)((sum[2] + alpha / 2) / alpha) : 0;
                out_row[4 * x + 3] = sum[4] ? (guchar)((alpha + sum[4] / 2) / sum[4]) : 0;
            }
            memset(sums, 0, sizeof(guint64) * 5 * (gsize)target_width);
            target_row = next_target;
        }
    }
    png_read_end(png, NULL);
    g_free(row);
    g_free(sums);
    png_destroy_read_struct(&png, &info, NULL);
    *out = pixbuf;
    return CSHIM_PNG_OK;
}
