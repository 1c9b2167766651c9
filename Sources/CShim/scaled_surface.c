#include "cshim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Shrinking by at most half, bilinear interpolation reads every source pixel (the samples are less than
 * two pixels apart), and pixman runs it in SIMD code where gdk-pixbuf's filter is generic. Shrinking by less
 * than a quarter, most samples fall between two pixels and bilinear interpolation averages them, which softens
 * the picture more than a downscale of the original would: there, Catmull-Rom interpolation (four taps, in two
 * passes) keeps that detail. */

enum { WEIGHT_BITS = 14, FRACTION_BITS = 4 };

/* For each output position along one side: the byte offsets (`step` bytes a pixel) of the four source pixels it
 * reads, clamped to the edges, and their weights, which sum to 1 << WEIGHT_BITS. */
static void catmull_rom_taps(int source, int target, int step, int *offsets, int16_t *weights) {
    const double scale = (double)source / target;
    for (int i = 0; i < target; i++) {
        const double centre = (i + 0.5) * scale - 0.5;
        const int base = (int)floor(centre);
        const double t = centre - base, t2 = t * t, t3 = t2 * t;
        const double w[3] = {(-t3 + 2 * t2 - t) / 2, (3 * t3 - 5 * t2 + 2) / 2, (-3 * t3 + 4 * t2 + t) / 2};
        int sum = 0;
        for (int k = 0; k < 3; k++) {
            weights[i * 4 + k] = (int16_t)lround(w[k] * (1 << WEIGHT_BITS));
            sum += weights[i * 4 + k];
        }
        weights[i * 4 + 3] = (int16_t)((1 << WEIGHT_BITS) - sum);
        for (int k = 0; k < 4; k++) {
            const int index = base - 1 + k;
            offsets[i * 4 + k] = (index < 0 ? 0 : index >= source ? source - 1 : index) * step;
        }
    }
}

/* `source` (4 bytes a pixel, premultiplied where it has alpha) into `target`, both of their sizes: down the
 * columns first, then across; FALSE if the memory for the passes cannot be had. */
static gboolean shrink_catmull_rom(const uint8_t *source, int source_width, int source_height, int source_stride,
                                   uint8_t *target, int width, int height, int target_stride, gboolean has_alpha) {
    const int row_bytes = source_width * 4;
    int *offsets_x = malloc(sizeof(int) * 4 * width), *offsets_y = malloc(sizeof(int) * 4 * height);
    int16_t *weights_x = malloc(sizeof(int16_t) * 4 * width), *weights_y = malloc(sizeof(int16_t) * 4 * height);
    /* One row shrunk down, kept with FRACTION_BITS of precision (and its overshoot) for the pass across. */
    int32_t *row = malloc(sizeof(int32_t) * row_bytes);
    gboolean made = offsets_x && offsets_y && weights_x && weights_y && row;
    if (made) {
        catmull_rom_taps(source_width, width, 4, offsets_x, weights_x);
        catmull_rom_taps(source_height, height, source_stride, offsets_y, weights_y);
        const int down_shift = WEIGHT_BITS - FRACTION_BITS, across_shift = WEIGHT_BITS + FRACTION_BITS;
        for (int y = 0; y < height; y++) {
            const int16_t *wy = weights_y + y * 4;
            const uint8_t *l0 = source + offsets_y[y * 4], *l1 = source + offsets_y[y * 4 + 1];
            const uint8_t *l2 = source + offsets_y[y * 4 + 2], *l3 = source + offsets_y[y * 4 + 3];
            for (int i = 0; i < row_bytes; i++) {
                const int sum = l0[i] * wy[0] + l1[i] * wy[1] + l2[i] * wy[2] + l3[i] * wy[3];
                row[i] = (sum + (1 << (down_shift - 1))) >> down_shift;
            }
            uint32_t *out = (uint32_t *)(target + (size_t)y * target_stride);
            for (int x = 0; x < width; x++) {
                const int16_t *wx = weights_x + x * 4;
                const int *o = offsets_x + x * 4;
                int value[4];
                for (int c = 0; c < 4; c++) {
                    const int sum = row[o[0] + c] * wx[0] + row[o[1] + c] * wx[1] + row[o[2] + c] * wx[2] +
                                    row[o[3] + c] * wx[3];
                    const int v = (sum + (1 << (across_shift - 1))) >> across_shift;
                    value[c] = v < 0 ? 0 : v > 255 ? 255 : v;
                }
                /* Bytes in memory order; on little-endian the fourth is alpha (or unused without it). */
                const uint32_t alpha = has_alpha ? (uint32_t)value[3] : 255;
                uint32_t pixel = alpha << 24;
                for (int c = 0; c < 3; c++) {
                    /* Premultiplied: no colour exceeds its alpha, which the overshoot could make it do. */
                    pixel |= ((uint32_t)value[c] > alpha ? alpha : (uint32_t)value[c]) << (8 * c);
                }
                out[x] = pixel;
            }
        }
    }
    free(offsets_x);
    free(offsets_y);
    free(weights_x);
    free(weights_y);
    free(row);
    return made;
}

cairo_surface_t *cshim_image_surface_shrunk(cairo_surface_t *image, int width, int height, gboolean with_alpha) {
    const int source_width = cairo_image_surface_get_width(image);
    const int source_height = cairo_image_surface_get_height(image);
    const gboolean has_alpha = cairo_image_surface_get_format(image) == CAIRO_FORMAT_ARGB32;
    cairo_surface_t *surface = cshim_image_surface_create_own_pages(
        has_alpha || with_alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, MAX(width, 1), MAX(height, 1));
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        return surface;
    }
    const gboolean mild = width <= source_width && height <= source_height && 4 * width > 3 * source_width &&
                          4 * height > 3 * source_height;
    if (mild && G_BYTE_ORDER == G_LITTLE_ENDIAN) {
        cairo_surface_flush(image);
        cairo_surface_flush(surface);
        if (shrink_catmull_rom(cairo_image_surface_get_data(image), source_width, source_height,
                               cairo_image_surface_get_stride(image), cairo_image_surface_get_data(surface), width,
                               height, cairo_image_surface_get_stride(surface), has_alpha)) {
            cairo_surface_mark_dirty(surface);
            return surface;
        }
    }
    cairo_t *cr = cairo_create(surface);
    cairo_scale(cr, (double)MAX(width, 1) / source_width, (double)MAX(height, 1) / source_height);
    cairo_set_source_surface(cr, image, 0, 0);
    cairo_pattern_t *pattern = cairo_get_source(cr);
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR);
    /* The edges' samples take the edge pixels, not transparency past them. */
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_destroy(cr);
    return surface;
}

void cshim_cut_round_corners(cairo_surface_t *surface, double radius) {
    const double width = cairo_image_surface_get_width(surface);
    const double height = cairo_image_surface_get_height(surface);
    const double r = MIN(radius, MIN(width, height) / 2);
    if (r <= 0) return;
    cairo_t *cr = cairo_create(surface);
    /* Each corner's square outside its quarter circle, cleared: only those pixels are touched. Per corner:
     * the circle's centre, the angle its quarter arc starts at, and the square's outer corner. */
    const double corners[4][5] = {{r, r, G_PI, 0, 0},
                                  {width - r, r, 1.5 * G_PI, width, 0},
                                  {width - r, height - r, 0, width, height},
                                  {r, height - r, 0.5 * G_PI, 0, height}};
    for (int i = 0; i < 4; i++) {
        cairo_move_to(cr, corners[i][3], corners[i][4]);
        cairo_arc(cr, corners[i][0], corners[i][1], r, corners[i][2], corners[i][2] + 0.5 * G_PI);
        cairo_close_path(cr);
    }
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo_fill(cr);
    cairo_destroy(cr);
}
