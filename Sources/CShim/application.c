#include "cshim.h"

// A GtkApplication whose D-Bus objects are exported in `dbus_register`, before the application owns its bus
// name: a call that started the app (D-Bus activation) finds them there.
typedef struct {
    GtkApplication parent;
} CShimApplication;

typedef struct {
    GtkApplicationClass parent_class;
} CShimApplicationClass;

G_DEFINE_TYPE(CShimApplication, cshim_application, GTK_TYPE_APPLICATION)

static guint cshim_application_dbus_registered_signal;

static gboolean cshim_application_dbus_register(GApplication *application, GDBusConnection *connection,
                                                const gchar *object_path, GError **error) {
    if (!G_APPLICATION_CLASS(cshim_application_parent_class)
             ->dbus_register(application, connection, object_path, error)) {
        return FALSE;
    }
    g_signal_emit(application, cshim_application_dbus_registered_signal, 0, connection);
    return TRUE;
}

static void cshim_application_class_init(CShimApplicationClass *klass) {
    G_APPLICATION_CLASS(klass)->dbus_register = cshim_application_dbus_register;
    cshim_application_dbus_registered_signal =
        g_signal_new("dbus-registered", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                     G_TYPE_NONE, 1, G_TYPE_DBUS_CONNECTION);
}

static void cshim_application_init(CShimApplication *application) {}

GtkApplication *cshim_application_new(const gchar *application_id, GApplicationFlags flags) {
    return g_object_new(cshim_application_get_type(), "application-id", application_id, "flags", flags, NULL);
}
