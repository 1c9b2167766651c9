#include "cshim.h"
#include "png_quiet.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>

/* Reads a thumbnail (a PNG in the freedesktop.org cache) into a pixbuf, as gdk-pixbuf's loader would,
 * without checking each chunk's CRC and the image data's Adler-32: for a file written whole and renamed
 * into place they are passes over its bytes that find nothing. A damaged file still fails where its
 * structure breaks; its text (Thumb::URI, Thumb::MTime) says whether it is this image's. */

/* Whether the text chunks read so far give each expected key its expected value (or leave it out). */
static gboolean text_agrees(png_structp png, png_infop info, gchar **keys, gchar **values, gint expected_count) {
    png_textp text = NULL;
    const int text_count = png_get_text(png, info, &text, NULL);
    for (int i = 0; i < text_count; i++) {
        for (gint k = 0; k < expected_count; k++) {
            if (g_strcmp0(text[i].key, keys[k]) == 0 && g_strcmp0(text[i].text, values[k]) != 0) {
                return FALSE;
            }
        }
    }
    return TRUE;
}

GdkPixbuf *cshim_png_read_thumbnail(const char *path, gint max_side, gchar **keys, gchar **values,
                                    gint expected_count) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        return NULL;
    }
    png_structp png;
    png_infop info;
    if (!cshim_png_start_read(&png, &info)) {
        fclose(file);
        return NULL;
    }
    GdkPixbuf *volatile pixbuf = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        g_free(rows);
        if (pixbuf != NULL) g_object_unref(pixbuf);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(file);
        return NULL;
    }
    png_init_io(png, file);
    png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
#ifdef PNG_IGNORE_ADLER32
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_set_user_limits(png, (png_uint_32)max_side, (png_uint_32)max_side);
    png_read_info(png, info);
    /* A stale thumbnail says so before its pixels (writers put the text first): it is not decoded. */
    if (!text_agrees(png, info, keys, values, expected_count)) {
        png_error(png, "another file's thumbnail");
    }

    /* Every format becomes 8-bit RGB, or RGBA where it has transparency. */
    png_set_strip_16(png);
    png_set_packing(png);
    png_set_expand(png);
    png_set_gray_to_rgb(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    const png_uint_32 width = png_get_image_width(png, info);
    const png_uint_32 height = png_get_image_height(png, info);
    const gboolean has_alpha = png_get_channels(png, info) == 4;
    pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, has_alpha, 8, (int)width, (int)height);
    if (pixbuf == NULL || png_get_rowbytes(png, info) > (gsize)gdk_pixbuf_get_rowstride(pixbuf)) {
        png_error(png, "unexpected layout");
    }
    guchar *pixels = gdk_pixbuf_get_pixels(pixbuf);
    const gsize stride = (gsize)gdk_pixbuf_get_rowstride(pixbuf);
    rows = g_new(png_bytep, height);
    for (png_uint_32 y = 0; y < height; y++) {
        rows[y] = pixels + y * stride;
    }
    png_read_image(png, rows);
    /* Text after the image data counts too. */
    png_read_end(png, info);
    png_textp text = NULL;
    const int text_count = png_get_text(png, info, &text, NULL);
    for (int i = 0; i < text_count; i++) {
        gchar *key = g_strconcat("tEXt::", text[i].key, NULL);
        gdk_pixbuf_set_option(pixbuf, key, text[i].text);
        g_free(key);
    }
    g_free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(file);
    return pixbuf;
}
