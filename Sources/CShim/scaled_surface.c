#include "cshim.h"

/* Shrinking by at most half, bilinear interpolation reads every source pixel (the samples are less than
 * two pixels apart), and pixman runs it in SIMD code where gdk-pixbuf's filter is generic. */

cairo_surface_t *cshim_image_surface_shrunk(cairo_surface_t *image, int width, int height, gboolean with_alpha) {
    const int source_width = cairo_image_surface_get_width(image);
    const int source_height = cairo_image_surface_get_height(image);
    const gboolean has_alpha = cairo_image_surface_get_format(image) == CAIRO_FORMAT_ARGB32;
    cairo_surface_t *surface = cairo_image_surface_create(
        has_alpha || with_alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, MAX(width, 1), MAX(height, 1));
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        return surface;
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
