#include "cshim.h"

/* gdk-pixbuf's animation iterators take a GTimeVal, which GLib deprecates: the animation's own clock, in
 * milliseconds from its start, is turned into one here, so frames are reached one by one at no real time. */

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

GdkPixbufAnimationIter *cshim_animation_iter_new(GdkPixbufAnimation *animation) {
    GTimeVal start = {0, 0};
    return gdk_pixbuf_animation_get_iter(animation, &start);
}

gboolean cshim_animation_iter_next(GdkPixbufAnimationIter *iter, gint64 *clock_ms) {
    const int delay = gdk_pixbuf_animation_iter_get_delay_time(iter);
    if (delay < 0) {
        return FALSE;
    }
    *clock_ms += delay;
    GTimeVal now = {(glong)(*clock_ms / 1000), (glong)(*clock_ms % 1000) * 1000};
    gdk_pixbuf_animation_iter_advance(iter, &now);
    return TRUE;
}

G_GNUC_END_IGNORE_DEPRECATIONS
