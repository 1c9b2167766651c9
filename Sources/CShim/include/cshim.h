#ifndef CSHIM_H
#define CSHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#include <curl/curl.h>
#include <sys/types.h>

G_BEGIN_DECLS

/// `g_signal_connect_data` with no flags: `g_signal_connect` is a macro Swift cannot import.
/// `destroy` runs when the handler is disconnected or the instance finalized; it releases `data`.
gulong cshim_signal_connect(gpointer instance, const gchar *signal, GCallback handler,
                            gpointer data, GClosureNotify destroy);

/// Emits a signal that takes no arguments and returns nothing (`g_signal_emit_by_name` is variadic).
void cshim_signal_emit_void(gpointer instance, const gchar *signal);

/// A modal message dialog with no buttons yet: `gtk_message_dialog_new` takes a printf format, so
/// the texts are passed through "%s" here and never read as formats.
GtkWidget *cshim_message_dialog_new(GtkWindow *parent, GtkMessageType type, const gchar *primary,
                                    const gchar *secondary);

typedef enum {
    CSHIM_PNG_OK,
    /// Not a PNG: another decoder's job.
    CSHIM_PNG_NOT_PNG,
    /// Wider, taller or larger than the caps: refused before any row was read.
    CSHIM_PNG_TOO_LARGE,
    /// Interlaced: left to gdk-pixbuf.
    CSHIM_PNG_INTERLACED,
    /// The data ends (or breaks) before the last row.
    CSHIM_PNG_INCOMPLETE,
    CSHIM_PNG_FAILED,
} CShimPngResult;

/// Decodes a PNG scaled to fit `fit_width`×`fit_height` (no upscaling; 0 for full size) while it
/// reads it, so memory stays the output's plus one row. `width`/`height` get the file's own size.
CShimPngResult cshim_png_decode_scaled(const guchar *data, gsize length, gint fit_width, gint fit_height,
                                       gint64 max_pixels, gint max_side, GdkPixbuf **out, gint *width,
                                       gint *height);

/// The thumbnail PNG at `path` as an 8-bit RGB or RGBA pixbuf with its text chunks as `tEXt::` options
/// (as gdk-pixbuf's loader gives them), its checksums not verified; NULL if it cannot be read or a side
/// is longer than `max_side`, or if a text chunk before its pixels gives one of the `expected_count` keys
/// another value than `values` does (see png_read.c).
GdkPixbuf *cshim_png_read_thumbnail(const char *path, gint max_side, gchar **keys, gchar **values,
                                    gint expected_count);

/// `pixbuf` (8-bit RGB or RGBA) as a PNG file's bytes, rows unfiltered and stored, with
/// `text_count` tEXt chunks; NULL if encoding failed.
GBytes *cshim_png_encode_stored(GdkPixbuf *pixbuf, gchar **keys, gchar **values, gint text_count);

/// The pixels of `pixbuf` (8-bit RGB or RGBA) in a new image surface (ARGB32 with alpha, else
/// RGB24) that belongs to no display, so any thread may make one (see image_surfaces.c).
cairo_surface_t *cshim_image_surface_from_pixbuf(const GdkPixbuf *pixbuf);

/// `image` (ARGB32 or RGB24) shrunk to `width`×`height`, by at most half along each side, with bilinear
/// interpolation, in a new image surface (ARGB32 with alpha or `with_alpha`, else RGB24) that belongs to
/// no display (see scaled_surface.c).
cairo_surface_t *cshim_image_surface_shrunk(cairo_surface_t *image, int width, int height, gboolean with_alpha);

/// Clears the corners of an ARGB32 image surface outside round corners of `radius` pixels
/// (antialiased), touching no other pixel.
void cshim_cut_round_corners(cairo_surface_t *surface, double radius);

/// A copy of the image surface `image` (ARGB32 or RGB24) that the display reads without an upload
/// each time it is painted (a MIT-SHM image on X11), or `image` itself, referenced again, where
/// the display has none. GUI thread only.
cairo_surface_t *cshim_display_image_copy(cairo_surface_t *image);

/// `renameat2(…, RENAME_NOREPLACE)`, which needs _GNU_SOURCE: renames unless `destination` exists
/// (then -1 with errno EEXIST). -1 with EINVAL or ENOSYS where the file system cannot tell.
int cshim_rename_noreplace(const char *source, const char *destination);

/// Casts used by the binding layer, where C code would use GTK_WIDGET() and friends.
GtkWidget *cshim_widget(gpointer instance);

/// `curl_easy_setopt` is variadic: one fixed-arity wrapper per argument type.
CURLcode cshim_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode cshim_curl_setopt_ptr(CURL *handle, CURLoption option, const void *value);
CURLcode cshim_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode cshim_curl_setopt_write(CURL *handle,
                                 size_t (*callback)(char *data, size_t size, size_t count, void *user));
CURLcode cshim_curl_setopt_xferinfo(CURL *handle,
                                    int (*callback)(void *user, curl_off_t dltotal, curl_off_t dlnow,
                                                    curl_off_t ultotal, curl_off_t ulnow));
/// Called before each request is sent (redirects and reused connections too) with the peer's address.
CURLcode cshim_curl_setopt_prereq(CURL *handle, int (*callback)(void *user, char *primary_ip, char *local_ip,
                                                                 int primary_port, int local_port));
CURLMcode cshim_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
/// `curl_easy_getinfo` is variadic too.
CURLcode cshim_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode cshim_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode cshim_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);

/// A GtkApplication that emits "dbus-registered" (with its GDBusConnection) from `dbus_register`, before
/// it owns its bus name: objects exported then are there for the call that started the app.
GtkApplication *cshim_application_new(const gchar *application_id, GApplicationFlags flags);

/// Replaces the process with a new run of the same program and arguments, its bus connection closed first
/// so that the new run owns the application's name; returns only when that fails.
void cshim_application_relaunch(GApplication *application);

/// What the gallery canvas asks its owner about the cells that are on screen, so that each can be
/// exposed to assistive technologies as a child of role image with a name and extents.
typedef struct {
    /// Number of cells currently on screen.
    gint (*visible_cell_count)(gpointer owner);
    /// Fills the cell's rectangle in widget coordinates, its name, description and a key that
    /// identifies it for good (all strings newly allocated).
    gboolean (*visible_cell)(gpointer owner, gint index, GdkRectangle *rect, gchar **name, gchar **description,
                             gchar **key);
    /// The current rectangle of the cell with `key`: an accessible keeps meaning its own image while
    /// the gallery scrolls or reorders under it.
    gboolean (*cell_rect)(gpointer owner, const gchar *key, GdkRectangle *rect);
    gpointer owner;
} CShimCanvasCells;

/// A GtkDrawingArea whose accessible object reports one image child per visible cell.
GtkWidget *cshim_gallery_canvas_new(void);
/// Sets (or clears, with NULL) where the canvas asks about its cells. The struct is copied.
void cshim_gallery_canvas_set_cells(GtkWidget *canvas, const CShimCanvasCells *cells);
/// The height of everything the canvas can show; the canvas itself stays the size of its view and
/// scrolls through the content with the adjustment its GtkScrolledWindow gives it.
void cshim_gallery_canvas_set_content_height(GtkWidget *canvas, gdouble height);
/// Tells assistive technologies that the visible cells changed (scroll, reorder, load).
void cshim_gallery_canvas_cells_changed(GtkWidget *canvas);

/// Starts the program at `path` with `option` and `argument`, `input` as its standard input and `output` as its
/// standard output, and no other descriptor of this process; its process id, or -1.
pid_t cshim_spawn_with_pipes(const char *path, const char *option, const char *argument, int input, int output);

/// Confines the calling process for decoding bytes from anywhere: no file can be created, written, renamed or
/// removed, no socket opened, no process started or signalled but this one, no core dumped; threads and reading
/// files (loader modules) still work; at most `max_files` descriptors. For good, in every thread: 0, or -1 if
/// any of it could not be set up.
int cshim_decoder_sandbox(int max_files);

/// An anonymous file in memory, closed on exec (memfd_create: Swift's Glibc module leaves it out).
int cshim_memory_file(void);
/// A pipe whose ends are closed on exec (pipe2 with O_CLOEXEC).
int cshim_pipe(int ends[2]);

/// Names the calling thread where top, perf and /proc see it (its first 15 bytes).
void cshim_name_thread(const char *name);
/// An eventfd that wakes a poll (the main loop's) when signalled, until cleared.
gint cshim_wakeup_new(void);
void cshim_wakeup_signal(gint fd);
void cshim_wakeup_clear(gint fd);

/// An iterator at the first frame of `animation`, on a clock of its own that starts at 0 (see pixbuf_animation.c).
GdkPixbufAnimationIter *cshim_animation_iter_new(GdkPixbufAnimation *animation);
/// Moves `iter` to its next frame, `clock_ms` on by the current frame's delay; FALSE when the current frame is
/// the last one that will ever show.
gboolean cshim_animation_iter_next(GdkPixbufAnimationIter *iter, gint64 *clock_ms);

G_END_DECLS

#endif

/// Gives an entry a completion popup offering `names` (`count` of them), matched by prefix without regard to case;
/// `gtk_list_store_new` and `gtk_list_store_set` are variadic.
void cshim_entry_set_completions(GtkEntry *entry, const char *const *names, gint count);
