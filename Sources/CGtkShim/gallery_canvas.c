/* The gallery draws every cell itself (one widget for thousands of images), so GTK knows nothing of
 * the cells. These small GObject types tell assistive technologies what is on screen: the canvas's
 * accessible object has one child of role image per visible cell, with a name and on-screen extents,
 * asked from the Swift owner through CShimCanvasCells. */
#include "cgtkshim.h"
#include <gtk/gtk-a11y.h>

/* ---- one visible cell ---- */

typedef struct {
    AtkObject parent;
    GtkWidget *canvas; /* weak: the canvas owns its accessible, which owns the cells */
    gint index;
    gchar *key;        /* which image this is, whatever its place now */
} CShimCellAccessible;

typedef struct {
    AtkObjectClass parent_class;
} CShimCellAccessibleClass;

static void cshim_cell_component_init(AtkComponentIface *iface);
static void cshim_cell_image_init(AtkImageIface *iface);

G_DEFINE_TYPE_WITH_CODE(CShimCellAccessible, cshim_cell_accessible, ATK_TYPE_OBJECT,
                        G_IMPLEMENT_INTERFACE(ATK_TYPE_COMPONENT, cshim_cell_component_init)
                        G_IMPLEMENT_INTERFACE(ATK_TYPE_IMAGE, cshim_cell_image_init))

typedef struct {
    GtkDrawingArea parent;
    CShimCanvasCells cells;
    gboolean has_cells;
    /* The canvas is a GtkScrollable: it stays the size of what is seen and draws the part of its
     * content the adjustment points at, so the content may be taller than X windows and cairo's
     * fixed-point coordinates allow (8,388,607 px: about 180,000 images). */
    GtkAdjustment *hadjustment;
    GtkAdjustment *vadjustment;
    gdouble content_height;
} CShimGalleryCanvas;

typedef struct {
    GtkDrawingAreaClass parent_class;
} CShimGalleryCanvasClass;

static GType cshim_gallery_canvas_get_type(void);

static gboolean cshim_cell_rect(CShimCellAccessible *cell, GdkRectangle *rect) {
    if (cell->canvas == NULL) return FALSE;
    CShimGalleryCanvas *canvas = (CShimGalleryCanvas *)cell->canvas;
    if (!canvas->has_cells || cell->key == NULL) return FALSE;
    return canvas->cells.cell_rect(canvas->cells.owner, cell->key, rect);
}

static void cshim_cell_get_extents(AtkComponent *component, gint *x, gint *y, gint *width, gint *height,
                                   AtkCoordType coord_type) {
    CShimCellAccessible *cell = (CShimCellAccessible *)component;
    GdkRectangle rect;
    *x = *y = *width = *height = -1;
    if (!cshim_cell_rect(cell, &rect)) return;
    GdkWindow *window = gtk_widget_get_window(cell->canvas);
    if (window == NULL) return;
    gint origin_x = 0, origin_y = 0;
    gdk_window_get_origin(window, &origin_x, &origin_y);
    *x = origin_x + rect.x;
    *y = origin_y + rect.y;
    *width = rect.width;
    *height = rect.height;
    if (coord_type == ATK_XY_WINDOW) {
        GdkWindow *toplevel = gdk_window_get_toplevel(window);
        gint top_x = 0, top_y = 0;
        gdk_window_get_origin(toplevel, &top_x, &top_y);
        *x -= top_x;
        *y -= top_y;
    }
}

static void cshim_cell_component_init(AtkComponentIface *iface) {
    iface->get_extents = cshim_cell_get_extents;
}

static void cshim_cell_get_image_size(AtkImage *image, gint *width, gint *height) {
    GdkRectangle rect;
    if (cshim_cell_rect((CShimCellAccessible *)image, &rect)) {
        *width = rect.width;
        *height = rect.height;
    } else {
        *width = *height = -1;
    }
}

static void cshim_cell_get_image_position(AtkImage *image, gint *x, gint *y, AtkCoordType coord_type) {
    gint width, height;
    cshim_cell_get_extents(ATK_COMPONENT(image), x, y, &width, &height, coord_type);
}

static const gchar *cshim_cell_get_image_description(AtkImage *image) {
    return atk_object_get_description(ATK_OBJECT(image));
}

static void cshim_cell_image_init(AtkImageIface *iface) {
    iface->get_image_size = cshim_cell_get_image_size;
    iface->get_image_position = cshim_cell_get_image_position;
    iface->get_image_description = cshim_cell_get_image_description;
}

static gint cshim_cell_get_index_in_parent(AtkObject *object) {
    return ((CShimCellAccessible *)object)->index;
}

static AtkStateSet *cshim_cell_ref_state_set(AtkObject *object) {
    AtkStateSet *states = ATK_OBJECT_CLASS(cshim_cell_accessible_parent_class)->ref_state_set(object);
    CShimCellAccessible *cell = (CShimCellAccessible *)object;
    if (cell->canvas == NULL) {
        atk_state_set_add_state(states, ATK_STATE_DEFUNCT);
    } else {
        atk_state_set_add_state(states, ATK_STATE_VISIBLE);
        atk_state_set_add_state(states, ATK_STATE_SHOWING);
        atk_state_set_add_state(states, ATK_STATE_SELECTABLE);
    }
    return states;
}

static void cshim_cell_accessible_finalize(GObject *object) {
    g_free(((CShimCellAccessible *)object)->key);
    G_OBJECT_CLASS(cshim_cell_accessible_parent_class)->finalize(object);
}

static void cshim_cell_accessible_class_init(CShimCellAccessibleClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = cshim_cell_accessible_finalize;
    AtkObjectClass *atk_class = ATK_OBJECT_CLASS(klass);
    atk_class->get_index_in_parent = cshim_cell_get_index_in_parent;
    atk_class->ref_state_set = cshim_cell_ref_state_set;
}

static void cshim_cell_accessible_init(CShimCellAccessible *cell) {
    cell->index = -1;
    cell->key = NULL;
}

/* ---- the canvas's accessible: its children are the visible cells ---- */

typedef struct {
    GtkWidgetAccessible parent;
    GPtrArray *cells; /* CShimCellAccessible, created on demand, dropped when the cells change */
} CShimCanvasAccessible;

typedef struct {
    GtkWidgetAccessibleClass parent_class;
} CShimCanvasAccessibleClass;

G_DEFINE_TYPE(CShimCanvasAccessible, cshim_canvas_accessible, GTK_TYPE_WIDGET_ACCESSIBLE)

static GtkWidget *cshim_canvas_of(AtkObject *object) {
    return gtk_accessible_get_widget(GTK_ACCESSIBLE(object));
}

static gint cshim_canvas_get_n_children(AtkObject *object) {
    GtkWidget *widget = cshim_canvas_of(object);
    if (widget == NULL) return 0;
    CShimGalleryCanvas *canvas = (CShimGalleryCanvas *)widget;
    if (!canvas->has_cells) return 0;
    return canvas->cells.visible_cell_count(canvas->cells.owner);
}

static AtkObject *cshim_canvas_child(CShimCanvasAccessible *self, gint index) {
    GtkWidget *widget = cshim_canvas_of(ATK_OBJECT(self));
    if (widget == NULL || index < 0) return NULL;
    CShimGalleryCanvas *canvas = (CShimGalleryCanvas *)widget;
    if (!canvas->has_cells) return NULL;
    if ((guint)index < self->cells->len && g_ptr_array_index(self->cells, index) != NULL)
        return g_ptr_array_index(self->cells, index);

    GdkRectangle rect;
    gchar *name = NULL, *description = NULL, *key = NULL;
    if (!canvas->cells.visible_cell(canvas->cells.owner, index, &rect, &name, &description, &key)) return NULL;
    CShimCellAccessible *cell = g_object_new(cshim_cell_accessible_get_type(), NULL);
    cell->canvas = widget;
    cell->index = index;
    cell->key = key;
    AtkObject *atk = ATK_OBJECT(cell);
    atk_object_set_role(atk, ATK_ROLE_IMAGE);
    atk_object_set_name(atk, name != NULL ? name : "");
    atk_object_set_description(atk, description != NULL ? description : "");
    atk_object_set_parent(atk, ATK_OBJECT(self));
    g_free(name);
    g_free(description);
    if ((guint)index >= self->cells->len) g_ptr_array_set_size(self->cells, index + 1);
    g_ptr_array_index(self->cells, index) = cell;
    return atk;
}

static AtkObject *cshim_canvas_ref_child(AtkObject *object, gint index) {
    AtkObject *child = cshim_canvas_child((CShimCanvasAccessible *)object, index);
    return child != NULL ? g_object_ref(child) : NULL;
}

static void cshim_cell_release(gpointer data) {
    if (data == NULL) return;
    CShimCellAccessible *cell = data;
    cell->canvas = NULL;
    atk_object_notify_state_change(ATK_OBJECT(cell), ATK_STATE_DEFUNCT, TRUE);
    g_object_unref(cell);
}

static void cshim_canvas_accessible_finalize(GObject *object) {
    g_ptr_array_unref(((CShimCanvasAccessible *)object)->cells);
    G_OBJECT_CLASS(cshim_canvas_accessible_parent_class)->finalize(object);
}

static void cshim_canvas_accessible_initialize(AtkObject *object, gpointer data) {
    ATK_OBJECT_CLASS(cshim_canvas_accessible_parent_class)->initialize(object, data);
    atk_object_set_role(object, ATK_ROLE_LAYERED_PANE);
}

static void cshim_canvas_accessible_class_init(CShimCanvasAccessibleClass *klass) {
    AtkObjectClass *atk_class = ATK_OBJECT_CLASS(klass);
    atk_class->initialize = cshim_canvas_accessible_initialize;
    atk_class->get_n_children = cshim_canvas_get_n_children;
    atk_class->ref_child = cshim_canvas_ref_child;
    G_OBJECT_CLASS(klass)->finalize = cshim_canvas_accessible_finalize;
}

static void cshim_canvas_accessible_init(CShimCanvasAccessible *self) {
    self->cells = g_ptr_array_new_with_free_func(cshim_cell_release);
}

/* ---- the canvas widget ---- */

G_DEFINE_TYPE_WITH_CODE(CShimGalleryCanvas, cshim_gallery_canvas, GTK_TYPE_DRAWING_AREA,
                        G_IMPLEMENT_INTERFACE(GTK_TYPE_SCROLLABLE, NULL))

enum { PROP_0, PROP_HADJUSTMENT, PROP_VADJUSTMENT, PROP_HSCROLL_POLICY, PROP_VSCROLL_POLICY };

/* The adjustments follow the content's height and the canvas's own size. */
static void cshim_gallery_canvas_configure(CShimGalleryCanvas *canvas) {
    GtkWidget *widget = GTK_WIDGET(canvas);
    gdouble width = gtk_widget_get_allocated_width(widget);
    gdouble page = gtk_widget_get_allocated_height(widget);
    if (canvas->vadjustment != NULL) {
        gdouble upper = MAX(canvas->content_height, page);
        gdouble value = CLAMP(gtk_adjustment_get_value(canvas->vadjustment), 0, MAX(upper - page, 0));
        gtk_adjustment_configure(canvas->vadjustment, value, 0, upper, MAX(page * 0.1, 1), MAX(page * 0.9, 1), page);
    }
    if (canvas->hadjustment != NULL) {
        gtk_adjustment_configure(canvas->hadjustment, 0, 0, width, MAX(width * 0.1, 1), MAX(width * 0.9, 1), width);
    }
}

static void cshim_gallery_canvas_scrolled(GtkAdjustment *adjustment, gpointer widget) {
    (void)adjustment;
    gtk_widget_queue_draw(widget);
}

static void cshim_gallery_canvas_set_adjustment(CShimGalleryCanvas *canvas, GtkAdjustment **slot,
                                               GtkAdjustment *adjustment) {
    if (adjustment == NULL) adjustment = gtk_adjustment_new(0, 0, 0, 0, 0, 0);
    if (*slot == adjustment) return;
    if (*slot != NULL) {
        g_signal_handlers_disconnect_by_data(*slot, canvas);
        g_object_unref(*slot);
    }
    *slot = g_object_ref_sink(adjustment);
    g_signal_connect(adjustment, "value-changed", G_CALLBACK(cshim_gallery_canvas_scrolled), canvas);
    cshim_gallery_canvas_configure(canvas);
}

static void cshim_gallery_canvas_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    CShimGalleryCanvas *canvas = (CShimGalleryCanvas *)object;
    switch (id) {
    case PROP_HADJUSTMENT:
        cshim_gallery_canvas_set_adjustment(canvas, &canvas->hadjustment, g_value_get_object(value));
        break;
    case PROP_VADJUSTMENT:
        cshim_gallery_canvas_set_adjustment(canvas, &canvas->vadjustment, g_value_get_object(value));
        break;
    case PROP_HSCROLL_POLICY:
    case PROP_VSCROLL_POLICY:
        break; /* always the minimum size: the canvas scrolls its content itself */
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static void cshim_gallery_canvas_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    CShimGalleryCanvas *canvas = (CShimGalleryCanvas *)object;
    switch (id) {
    case PROP_HADJUSTMENT: g_value_set_object(value, canvas->hadjustment); break;
    case PROP_VADJUSTMENT: g_value_set_object(value, canvas->vadjustment); break;
    case PROP_HSCROLL_POLICY:
    case PROP_VSCROLL_POLICY: g_value_set_enum(value, GTK_SCROLL_MINIMUM); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
    }
}

static void cshim_gallery_canvas_size_allocate(GtkWidget *widget, GtkAllocation *allocation) {
    GTK_WIDGET_CLASS(cshim_gallery_canvas_parent_class)->size_allocate(widget, allocation);
    cshim_gallery_canvas_configure((CShimGalleryCanvas *)widget);
}

static void cshim_gallery_canvas_dispose(GObject *object) {
    CShimGalleryCanvas *canvas = (CShimGalleryCanvas *)object;
    GtkAdjustment **slots[] = {&canvas->hadjustment, &canvas->vadjustment};
    for (gsize index = 0; index < G_N_ELEMENTS(slots); index++) {
        if (*slots[index] != NULL) {
            g_signal_handlers_disconnect_by_data(*slots[index], canvas);
            g_clear_object(slots[index]);
        }
    }
    G_OBJECT_CLASS(cshim_gallery_canvas_parent_class)->dispose(object);
}

static void cshim_gallery_canvas_class_init(CShimGalleryCanvasClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->set_property = cshim_gallery_canvas_set_property;
    object_class->get_property = cshim_gallery_canvas_get_property;
    object_class->dispose = cshim_gallery_canvas_dispose;
    g_object_class_override_property(object_class, PROP_HADJUSTMENT, "hadjustment");
    g_object_class_override_property(object_class, PROP_VADJUSTMENT, "vadjustment");
    g_object_class_override_property(object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
    g_object_class_override_property(object_class, PROP_VSCROLL_POLICY, "vscroll-policy");
    GTK_WIDGET_CLASS(klass)->size_allocate = cshim_gallery_canvas_size_allocate;
    gtk_widget_class_set_accessible_type(GTK_WIDGET_CLASS(klass), cshim_canvas_accessible_get_type());
}

static void cshim_gallery_canvas_init(CShimGalleryCanvas *canvas) {
    canvas->has_cells = FALSE;
    canvas->content_height = 0;
}

void cshim_gallery_canvas_set_content_height(GtkWidget *widget, gdouble height) {
    CShimGalleryCanvas *canvas = (CShimGalleryCanvas *)widget;
    if (canvas->content_height == height) return;
    canvas->content_height = height;
    cshim_gallery_canvas_configure(canvas);
}

GtkWidget *cshim_gallery_canvas_new(void) {
    return g_object_new(cshim_gallery_canvas_get_type(), NULL);
}

void cshim_gallery_canvas_set_cells(GtkWidget *widget, const CShimCanvasCells *cells) {
    CShimGalleryCanvas *canvas = (CShimGalleryCanvas *)widget;
    if (cells != NULL) {
        canvas->cells = *cells;
        canvas->has_cells = TRUE;
    } else {
        canvas->has_cells = FALSE;
    }
    cshim_gallery_canvas_cells_changed(widget);
}

/* When the same cells are still on screen in the same order and only their names changed (a
 * download's progress, a selection), the accessibles stay and only their names change: a reader
 * holding one keeps it, instead of finding it defunct many times a second. */
static gboolean cshim_canvas_update_in_place(CShimCanvasAccessible *self, CShimGalleryCanvas *canvas) {
    if (!canvas->has_cells) return FALSE;
    gint count = canvas->cells.visible_cell_count(canvas->cells.owner);
    if (count != (gint)self->cells->len) return FALSE;
    for (gint index = 0; index < count; index++) {
        CShimCellAccessible *cell = g_ptr_array_index(self->cells, index);
        if (cell == NULL) return FALSE;
        GdkRectangle rect;
        gchar *name = NULL, *description = NULL, *key = NULL;
        if (!canvas->cells.visible_cell(canvas->cells.owner, index, &rect, &name, &description, &key)) return FALSE;
        gboolean same = g_strcmp0(key, cell->key) == 0;
        if (same) {
            if (g_strcmp0(name, atk_object_get_name(ATK_OBJECT(cell))) != 0)
                atk_object_set_name(ATK_OBJECT(cell), name != NULL ? name : "");
            if (g_strcmp0(description, atk_object_get_description(ATK_OBJECT(cell))) != 0)
                atk_object_set_description(ATK_OBJECT(cell), description != NULL ? description : "");
        }
        g_free(name);
        g_free(description);
        g_free(key);
        if (!same) return FALSE;
    }
    return TRUE;
}

void cshim_gallery_canvas_cells_changed(GtkWidget *widget) {
    CShimCanvasAccessible *self = (CShimCanvasAccessible *)gtk_widget_get_accessible(widget);
    if (cshim_canvas_update_in_place(self, (CShimGalleryCanvas *)widget)) {
        g_signal_emit_by_name(self, "visible-data-changed");
        return;
    }
    for (gint index = (gint)self->cells->len - 1; index >= 0; index--) {
        gpointer child = g_ptr_array_index(self->cells, index);
        if (child != NULL) g_signal_emit_by_name(self, "children-changed::remove", index, child);
    }
    g_ptr_array_set_size(self->cells, 0);
    gint count = cshim_canvas_get_n_children(ATK_OBJECT(self));
    for (gint index = 0; index < count; index++) {
        AtkObject *child = cshim_canvas_child(self, index);
        if (child != NULL) g_signal_emit_by_name(self, "children-changed::add", index, child);
    }
    g_signal_emit_by_name(self, "visible-data-changed");
}
