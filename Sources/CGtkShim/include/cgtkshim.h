#ifndef CGTKSHIM_H
#define CGTKSHIM_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/// Casts used by the binding layer, where C code would use GTK_WIDGET() and friends.
GtkWidget *cshim_widget(gpointer instance);

/// A modal message dialog with no buttons yet: `gtk_message_dialog_new` takes a printf format, so
/// the texts are passed through "%s" here and never read as formats.
GtkWidget *cshim_message_dialog_new(GtkWindow *parent, GtkMessageType type, const gchar *primary,
                                    const gchar *secondary);

/// A copy of the image surface `image` (ARGB32 or RGB24) that the display reads without an upload
/// each time it is painted (a MIT-SHM image on X11), or `image` itself, referenced again, where
/// the display has none. GUI thread only.
cairo_surface_t *cshim_display_image_copy(cairo_surface_t *image);

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

/// Gives an entry a completion popup offering `names` (`count` of them), matched by prefix without regard to case;
/// `gtk_list_store_new` and `gtk_list_store_set` are variadic.
void cshim_entry_set_completions(GtkEntry *entry, const char *const *names, gint count);

G_END_DECLS

#endif
