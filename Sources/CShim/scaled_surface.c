#include "cshim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Shrinking by at most half, bilinear interpolation reads every source pixel (the samples are less than
 * two pixels apart), and pixman runs it in SIMD code where gdk-pixbuf's filter is generic. Shrinking by less
 * than a quarter, most samples fall between two pixels and bilinear interpolation averages them, which softens
 * the picture more than a downscale of the original would: there, Catmull-Rom interpolation (four taps, in two
 * passes) keeps that detail. */

enum { WEIGHT_BITS = 14, FRACTION_BITS = 4 };
enum { DOWN_SHIFT = WEIGHT_BITS - FRACTION_BITS, ACROSS_SHIFT = WEIGHT_BITS + FRACTION_BITS };

/* Two taps' weights side by side, as SSE2's multiply-add takes them. */
static uint32_t weight_pair(int16_t first, int16_t second) {
    return (uint32_t)(uint16_t)first | (uint32_t)(uint16_t)second << 16;
}

/* For each output position along one side: the offsets (`step` samples a pixel) of the four source pixels it reads,
 * clamped to the edges, and their weights, which sum to 1 << WEIGHT_BITS, as two pairs. */
static void catmull_rom_taps(int source, int target, int step, int *offsets, uint32_t *pairs) {
    const double scale = (double)source / target;
    for (int i = 0; i < target; i++) {
        const double centre = (i + 0.5) * scale - 0.5;
        const int base = (int)floor(centre);
        const double t = centre - base, t2 = t * t, t3 = t2 * t;
        const double w[3] = {(-t3 + 2 * t2 - t) / 2, (3 * t3 - 5 * t2 + 2) / 2, (-3 * t3 + 4 * t2 + t) / 2};
        int16_t weights[4];
        int sum = 0;
        for (int k = 0; k < 3; k++) {
            weights[k] = (int16_t)lround(w[k] * (1 << WEIGHT_BITS));
            sum += weights[k];
        }
        weights[3] = (int16_t)((1 << WEIGHT_BITS) - sum);
        pairs[i * 2] = weight_pair(weights[0], weights[1]);
        pairs[i * 2 + 1] = weight_pair(weights[2], weights[3]);
        for (int k = 0; k < 4; k++) {
            const int index = base - 1 + k;
            offsets[i * 4 + k] = (index < 0 ? 0 : index >= source ? source - 1 : index) * step;
        }
    }
}

static int weighed(int sample, uint32_t pair, int half) {
    return sample * (int16_t)(uint16_t)(pair >> (16 * half));
}

/* `count` samples of four source rows weighed down into `row`, kept with FRACTION_BITS of precision (and their
 * overshoot) for the pass across. */
static void weigh_down(const uint8_t *l0, const uint8_t *l1, const uint8_t *l2, const uint8_t *l3,
                       const uint32_t *pairs, int16_t *row, int count) {
    int i = 0;
#if defined(__SSE2__)
    const __m128i w01 = _mm_set1_epi32((int)pairs[0]), w23 = _mm_set1_epi32((int)pairs[1]);
    const __m128i round = _mm_set1_epi32(1 << (DOWN_SHIFT - 1)), zero = _mm_setzero_si128();
    for (; i + 8 <= count; i += 8) {
        const __m128i a = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(l0 + i)), zero);
        const __m128i b = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(l1 + i)), zero);
        const __m128i c = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(l2 + i)), zero);
        const __m128i d = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(l3 + i)), zero);
        __m128i low = _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(a, b), w01),
                                    _mm_madd_epi16(_mm_unpacklo_epi16(c, d), w23));
        __m128i high = _mm_add_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(a, b), w01),
                                     _mm_madd_epi16(_mm_unpackhi_epi16(c, d), w23));
        low = _mm_srai_epi32(_mm_add_epi32(low, round), DOWN_SHIFT);
        high = _mm_srai_epi32(_mm_add_epi32(high, round), DOWN_SHIFT);
        _mm_storeu_si128((__m128i *)(row + i), _mm_packs_epi32(low, high));
    }
#endif
    for (; i < count; i++) {
        const int sum = weighed(l0[i], pairs[0], 0) + weighed(l1[i], pairs[0], 1) + weighed(l2[i], pairs[1], 0) +
                        weighed(l3[i], pairs[1], 1);
        row[i] = (int16_t)((sum + (1 << (DOWN_SHIFT - 1))) >> DOWN_SHIFT);
    }
}

/* One output pixel's four samples weighed across from `row` (the fourth is the next pixel's first when the source
 * has three), each clamped to a byte, the first in the lowest; the first three the other way round when `reversed`. */
static uint32_t weigh_across(const int16_t *row, const int *offsets, const uint32_t *pairs, gboolean reversed) {
#if defined(__SSE2__)
    const __m128i p0 = _mm_loadl_epi64((const __m128i *)(row + offsets[0]));
    const __m128i p1 = _mm_loadl_epi64((const __m128i *)(row + offsets[1]));
    const __m128i p2 = _mm_loadl_epi64((const __m128i *)(row + offsets[2]));
    const __m128i p3 = _mm_loadl_epi64((const __m128i *)(row + offsets[3]));
    __m128i sum = _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(p0, p1), _mm_set1_epi32((int)pairs[0])),
                                _mm_madd_epi16(_mm_unpacklo_epi16(p2, p3), _mm_set1_epi32((int)pairs[1])));
    sum = _mm_srai_epi32(_mm_add_epi32(sum, _mm_set1_epi32(1 << (ACROSS_SHIFT - 1))), ACROSS_SHIFT);
    sum = _mm_packs_epi32(sum, sum);
    if (reversed) {
        sum = _mm_shufflelo_epi16(sum, _MM_SHUFFLE(3, 0, 1, 2));
    }
    return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(sum, sum));
#else
    uint32_t bytes = 0;
    for (int c = 0; c < 4; c++) {
        const int sum = weighed(row[offsets[0] + c], pairs[0], 0) + weighed(row[offsets[1] + c], pairs[0], 1) +
                        weighed(row[offsets[2] + c], pairs[1], 0) + weighed(row[offsets[3] + c], pairs[1], 1);
        const int v = (sum + (1 << (ACROSS_SHIFT - 1))) >> ACROSS_SHIFT;
        bytes |= (uint32_t)(v < 0 ? 0 : v > 255 ? 255 : v) << (8 * (reversed && c < 3 ? 2 - c : c));
    }
    return bytes;
#endif
}

/* How the source's samples lie: a cairo image's pixels (4 bytes, blue first in memory on little-endian, alpha
 * premultiplied where it has it) or a pixbuf's without alpha (3 bytes, red first). */
typedef enum { SAMPLES_CAIRO, SAMPLES_RGB } SampleOrder;

/* The source's pixels (`channels` bytes each, in `order`) into `target` (cairo's native 32-bit pixels), both of
 * their sizes: down the columns first, then across; FALSE if the memory for the passes cannot be had. */
static gboolean shrink_catmull_rom(const uint8_t *source, int channels, SampleOrder order, int source_width,
                                   int source_height, int source_stride, uint8_t *target, int width, int height,
                                   int target_stride, gboolean has_alpha) {
    const int row_samples = source_width * channels;
    int *offsets_x = malloc(sizeof(int) * 4 * width), *offsets_y = malloc(sizeof(int) * 4 * height);
    uint32_t *pairs_x = malloc(sizeof(uint32_t) * 2 * width), *pairs_y = malloc(sizeof(uint32_t) * 2 * height);
    /* Room past the last pixel for the four samples read across from a three-sample one. */
    int16_t *row = calloc((size_t)row_samples + 4, sizeof(int16_t));
    gboolean made = offsets_x && offsets_y && pairs_x && pairs_y && row;
    if (made) {
        catmull_rom_taps(source_width, width, channels, offsets_x, pairs_x);
        catmull_rom_taps(source_height, height, source_stride, offsets_y, pairs_y);
        for (int y = 0; y < height; y++) {
            const int *oy = offsets_y + y * 4;
            weigh_down(source + oy[0], source + oy[1], source + oy[2], source + oy[3], pairs_y + y * 2, row,
                       row_samples);
            uint32_t *out = (uint32_t *)(target + (size_t)y * target_stride);
            for (int x = 0; x < width; x++) {
                /* A cairo pixel holds blue in its lowest byte, red in its third: a pixbuf's come the other way. */
                const uint32_t bytes = weigh_across(row, offsets_x + x * 4, pairs_x + x * 2, order == SAMPLES_RGB);
                if (order == SAMPLES_RGB || !has_alpha) {
                    out[x] = 0xff000000u | (bytes & 0xffffff);
                } else {
                    /* Premultiplied: no colour exceeds its alpha, which the overshoot could make it do. */
                    const uint32_t alpha = bytes >> 24;
                    uint32_t pixel = alpha << 24;
                    for (int c = 0; c < 3; c++) {
                        const uint32_t value = bytes >> (8 * c) & 0xff;
                        pixel |= (value > alpha ? alpha : value) << (8 * c);
                    }
                    out[x] = pixel;
                }
            }
        }
    }
    free(offsets_x);
    free(offsets_y);
    free(pairs_x);
    free(pairs_y);
    free(row);
    return made;
}

/* Shrunk by less than a quarter along each side: where Catmull-Rom interpolation serves. */
static gboolean is_mild(int width, int height, int source_width, int source_height) {
    return width <= source_width && height <= source_height && 4 * width > 3 * source_width &&
           4 * height > 3 * source_height;
}

/* `image` (ARGB32 or RGB24) shrunk as `cshim_image_surface_from_pixbuf_shrunk` says. */
static cairo_surface_t *image_surface_shrunk(cairo_surface_t *image, int width, int height, gboolean with_alpha) {
    const int source_width = cairo_image_surface_get_width(image);
    const int source_height = cairo_image_surface_get_height(image);
    const gboolean has_alpha = cairo_image_surface_get_format(image) == CAIRO_FORMAT_ARGB32;
    cairo_surface_t *surface = cshim_image_surface_create_own_pages(
        has_alpha || with_alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, MAX(width, 1), MAX(height, 1));
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        return surface;
    }
    if (is_mild(width, height, source_width, source_height) && G_BYTE_ORDER == G_LITTLE_ENDIAN) {
        cairo_surface_flush(image);
        cairo_surface_flush(surface);
        if (shrink_catmull_rom(cairo_image_surface_get_data(image), 4, SAMPLES_CAIRO, source_width, source_height,
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

cairo_surface_t *cshim_image_surface_from_pixbuf_shrunk(const GdkPixbuf *pixbuf, int width, int height,
                                                        gboolean with_alpha) {
    const int source_width = gdk_pixbuf_get_width(pixbuf), source_height = gdk_pixbuf_get_height(pixbuf);
    /* A photo's pixels are read where they are: no surface of the pixbuf's whole size made first. */
    if (!gdk_pixbuf_get_has_alpha(pixbuf) && gdk_pixbuf_get_n_channels(pixbuf) == 3 &&
        gdk_pixbuf_get_bits_per_sample(pixbuf) == 8 && is_mild(width, height, source_width, source_height)) {
        cairo_surface_t *surface =
            cshim_image_surface_create_own_pages(with_alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, width, height);
        if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
            return surface;
        }
        cairo_surface_flush(surface);
        if (shrink_catmull_rom(gdk_pixbuf_read_pixels(pixbuf), 3, SAMPLES_RGB, source_width, source_height,
                               gdk_pixbuf_get_rowstride(pixbuf), cairo_image_surface_get_data(surface), width, height,
                               cairo_image_surface_get_stride(surface), FALSE)) {
            cairo_surface_mark_dirty(surface);
            return surface;
        }
        cairo_surface_destroy(surface);
    }
    cairo_surface_t *whole = cshim_image_surface_from_pixbuf(pixbuf, FALSE);
    cairo_surface_t *shrunk = image_surface_shrunk(whole, width, height, with_alpha);
    cairo_surface_destroy(whole);
    return shrunk;
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
