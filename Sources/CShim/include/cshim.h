#ifndef CSHIM_H
#define CSHIM_H

#include <cairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib-object.h>
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

/// A new image surface whose pixels have pages of their own, unmapped when it is destroyed (see image_surfaces.c):
/// for pictures kept after the thread that made them has moved on.
cairo_surface_t *cshim_image_surface_create_own_pages(cairo_format_t format, int width, int height);

/// The pixels of `pixbuf` (8-bit RGB or RGBA) in a new image surface (ARGB32 with alpha, else
/// RGB24) that belongs to no display, so any thread may make one (see image_surfaces.c); with `own_pages`, made by
/// `cshim_image_surface_create_own_pages`.
cairo_surface_t *cshim_image_surface_from_pixbuf(const GdkPixbuf *pixbuf, gboolean own_pages);

/// `pixbuf` (8-bit RGB or RGBA) shrunk to `width`×`height`, by at most half along each side, interpolated
/// (Catmull-Rom when by less than a quarter, else bilinear), in a new image surface (ARGB32 with alpha or
/// `with_alpha`, else RGB24) that belongs to no display, made by `cshim_image_surface_create_own_pages`; read where it
/// is when it is 8-bit RGB shrunk by less than a quarter (see scaled_surface.c).
cairo_surface_t *cshim_image_surface_from_pixbuf_shrunk(const GdkPixbuf *pixbuf, int width, int height,
                                                        gboolean with_alpha);

/// `pixbuf` (8-bit RGB without alpha) shrunk to `width`×`height` (neither larger than its own) by averaging the
/// area each new pixel covers, as gdk-pixbuf's bilinear filter does; NULL for other pixbufs or sizes
/// (see pixbuf_shrink.c).
GdkPixbuf *cshim_pixbuf_shrunk(const GdkPixbuf *pixbuf, int width, int height);

/// Clears the corners of an ARGB32 image surface outside round corners of `radius` pixels
/// (antialiased), touching no other pixel.
void cshim_cut_round_corners(cairo_surface_t *surface, double radius);

/// `renameat2(…, RENAME_NOREPLACE)`, which needs _GNU_SOURCE: renames unless `destination` exists
/// (then -1 with errno EEXIST). -1 with EINVAL or ENOSYS where the file system cannot tell.
int cshim_rename_noreplace(const char *source, const char *destination);

/// Sets the calling thread's file-system user (setfsuid) and returns the one before: a test run as root checks a
/// file's permissions as another user would, root's override of them dropped.
int cshim_set_file_user(unsigned int uid);

/// libcurl, opened by the first call to `cshim_curl_global_init` (see curl_library.c), not linked; every other
/// `cshim_curl_` function may only be called after it. The functions below are libcurl's of the same name.
CURLcode cshim_curl_global_init(long flags);
CURLM *cshim_curl_multi_init(void);
CURLMcode cshim_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode cshim_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode cshim_curl_multi_perform(CURLM *multi, int *running);
CURLMsg *cshim_curl_multi_info_read(CURLM *multi, int *queued);
/// `curl_multi_poll` without its count of descriptors ready.
CURLMcode cshim_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout);
CURL *cshim_curl_easy_init(void);
void cshim_curl_easy_cleanup(CURL *handle);
CURLcode cshim_curl_easy_pause(CURL *handle, int mask);
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

/// SHA-256 of `length` bytes at `data` into the 32 bytes at `digest`: OpenSSL's, from libcrypto opened at the first
/// call (see crypto_library.c).
void cshim_sha256(const void *data, size_t length, unsigned char *digest);

/// What the TLS handshake of the connection `handle` is on agreed (ALPN), known before any answer.
typedef enum {
    /// No handshake finished yet: no connection, or one still connecting; also over cleartext, or with another TLS
    /// library than OpenSSL.
    CSHIM_HANDSHAKE_PENDING,
    /// HTTP/2 ("h2").
    CSHIM_HANDSHAKE_HTTP2,
    /// Anything else, or nothing: HTTP/1.1.
    CSHIM_HANDSHAKE_OTHER,
} CShimHandshake;

CShimHandshake cshim_curl_handshake(CURL *handle);

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

/// The bytes malloc has handed out and not yet been given back (mallinfo2's arena and mapped blocks), for benchmarks of
/// memory.
size_t cshim_allocated_bytes(void);

G_END_DECLS

#endif
