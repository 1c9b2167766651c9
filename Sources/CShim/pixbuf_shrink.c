#include "cshim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Each output pixel is the average of the source area it covers, weighted by how much of each source pixel
 * falls inside, as gdk-pixbuf's bilinear filter reduces; in two passes of fixed-point sums, which cost a
 * fraction of that filter's generic per-pixel tables. */

enum { WEIGHT_BITS = 14, FRACTION_BITS = 4 };

/* For each output position along one side: the first source pixel it covers, how many it covers, and `taps`
 * weights, which sum to 1 << WEIGHT_BITS (zero past the last pixel covered). */
static void area_taps(int source, int target, int taps, int *first, int *count, int32_t *weights) {
    const double scale = (double)source / target;
    for (int i = 0; i < target; i++) {
        const double start = i * scale, end = (i + 1) * scale;
        const int from = (int)floor(start);
        first[i] = from;
        int sum = 0, last = 0;
        for (int k = 0; k < taps; k++) {
            const int j = from + k;
            const double covered = j < source ? fmin(end, j + 1) - fmax(start, j) : 0;
            const int weight = covered > 0 ? (int)lround(covered / scale * (1 << WEIGHT_BITS)) : 0;
            weights[i * taps + k] = weight;
            sum += weight;
            if (weight > 0) last = k;
        }
        weights[i * taps + last] += (1 << WEIGHT_BITS) - sum;
        count[i] = last + 1;
    }
}

GdkPixbuf *cshim_pixbuf_shrunk(const GdkPixbuf *pixbuf, int width, int height) {
    const int source_width = gdk_pixbuf_get_width(pixbuf), source_height = gdk_pixbuf_get_height(pixbuf);
    if (gdk_pixbuf_get_n_channels(pixbuf) != 3 || gdk_pixbuf_get_has_alpha(pixbuf) ||
        gdk_pixbuf_get_bits_per_sample(pixbuf) != 8 || width < 1 || height < 1 || width > source_width ||
        height > source_height) {
        return NULL;
    }
    GdkPixbuf *shrunk = gdk_pixbuf_new(GDK_COLORSPACE_RGB, FALSE, 8, width, height);
    if (!shrunk) return NULL;
    const int taps_x = (int)ceil((double)source_width / width) + 1;
    const int taps_y = (int)ceil((double)source_height / height) + 1;
    const int row_bytes = source_width * 3;
    int *first_x = malloc(sizeof(int) * width), *first_y = malloc(sizeof(int) * height);
    int *count_x = malloc(sizeof(int) * width), *count_y = malloc(sizeof(int) * height);
    int32_t *weights_x = malloc(sizeof(int32_t) * taps_x * width);
    int32_t *weights_y = malloc(sizeof(int32_t) * taps_y * height);
    /* One output row's worth of source rows summed down, with FRACTION_BITS of precision, for the pass across. */
    int32_t *row = malloc(sizeof(int32_t) * row_bytes);
    if (!(first_x && first_y && count_x && count_y && weights_x && weights_y && row)) {
        g_clear_object(&shrunk);
    } else {
        area_taps(source_width, width, taps_x, first_x, count_x, weights_x);
        area_taps(source_height, height, taps_y, first_y, count_y, weights_y);
        const guchar *source = gdk_pixbuf_read_pixels(pixbuf);
        const int source_stride = gdk_pixbuf_get_rowstride(pixbuf), stride = gdk_pixbuf_get_rowstride(shrunk);
        guchar *target = gdk_pixbuf_get_pixels(shrunk);
        const int down_shift = WEIGHT_BITS - FRACTION_BITS, across_shift = WEIGHT_BITS + FRACTION_BITS;
        for (int y = 0; y < height; y++) {
            const int32_t *wy = weights_y + y * taps_y;
            const guchar *line = source + (size_t)first_y[y] * source_stride;
            const int32_t round = 1 << (down_shift - 1);
            if (count_y[y] == 3) {
                /* The usual reduction by less than half, in one pass that the compiler vectorizes. */
                const guchar *next = line + source_stride, *last = next + source_stride;
                for (int i = 0; i < row_bytes; i++) {
                    row[i] = (line[i] * wy[0] + next[i] * wy[1] + last[i] * wy[2] + round) >> down_shift;
                }
            } else {
                for (int i = 0; i < row_bytes; i++) row[i] = round;
                for (int k = 0; k < count_y[y]; k++) {
                    const guchar *taken = line + (size_t)k * source_stride;
                    for (int i = 0; i < row_bytes; i++) row[i] += taken[i] * wy[k];
                }
                for (int i = 0; i < row_bytes; i++) row[i] >>= down_shift;
            }
            guchar *out = target + (size_t)y * stride;
            for (int x = 0; x < width; x++) {
                const int32_t *wx = weights_x + x * taps_x;
                const int32_t *in = row + first_x[x] * 3;
                int32_t r = 0, g = 0, b = 0;
                if (count_x[x] == 3) {
                    r = in[0] * wx[0] + in[3] * wx[1] + in[6] * wx[2];
                    g = in[1] * wx[0] + in[4] * wx[1] + in[7] * wx[2];
                    b = in[2] * wx[0] + in[5] * wx[1] + in[8] * wx[2];
                } else for (int k = 0; k < count_x[x]; k++) {
                    r += in[k * 3] * wx[k];
                    g += in[k * 3 + 1] * wx[k];
                    b += in[k * 3 + 2] * wx[k];
                }
                const int32_t half = 1 << (across_shift - 1);
                out[x * 3] = (guchar)MIN((r + half) >> across_shift, 255);
                out[x * 3 + 1] = (guchar)MIN((g + half) >> across_shift, 255);
                out[x * 3 + 2] = (guchar)MIN((b + half) >> across_shift, 255);
            }
        }
    }
    free(first_x);
    free(first_y);
    free(count_x);
    free(count_y);
    free(weights_x);
    free(weights_y);
    free(row);
    return shrunk;
}
