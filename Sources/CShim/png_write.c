#include "cshim.h"
#include <png.h>
#include <setjmp.h>

/* Writes a PNG with its rows stored unfiltered and uncompressed. gdk-pixbuf's saver lets libpng
 * try all five row filters on every row, which cost more than the rest of a thumbnail's making;
 * a thumbnail of a photo barely compresses anyway, and reads fastest stored. */
static void cshim_png_append(png_structp png, png_bytep data, png_size_t length) {
    g_byte_array_append((GByteArray *)png_get_io_ptr(png), data, (guint)length);
}

static void cshim_png_flush(png_structp png) {
    (void)png;
}

GBytes *cshim_png_encode_stored(GdkPixbuf *pixbuf, gchar **keys, gchar **values, gint text_count) {
    GByteArray *bytes = g_byte_array_new();
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    png_textp text = g_new0(png_text, text_count > 0 ? text_count : 1);
    volatile gboolean written = FALSE; /* read after a longjmp */
    if (png == NULL || info == NULL) goto done;
    if (setjmp(png_jmpbuf(png))) goto done;

    png_set_write_fn(png, bytes, cshim_png_append, cshim_png_flush);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, 0);
    gint width = gdk_pixbuf_get_width(pixbuf);
    gint height = gdk_pixbuf_get_height(pixbuf);
    gboolean alpha = gdk_pixbuf_get_has_alpha(pixbuf);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    for (gint index = 0; index < text_count; index++) {
        text[index].compression = PNG_TEXT_COMPRESSION_NONE;
        text[index].key = (png_charp)keys[index];
        text[index].text = (png_charp)values[index];
    }
    png_set_text(png, info, text, text_count);
    png_write_info(png, info);
    const guchar *pixels = gdk_pixbuf_read_pixels(pixbuf);
    gint stride = gdk_pixbuf_get_rowstride(pixbuf);
    for (gint row = 0; row < height; row++) {
        png_write_row(png, (png_const_bytep)(pixels + (gsize)row * (gsize)stride));
    }
    png_write_end(png, info);
    written = TRUE;

done:
    png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
    g_free(text);
    if (!written) {
        g_byte_array_unref(bytes);
        return NULL;
    }
    return g_byte_array_free_to_bytes(bytes);
}
