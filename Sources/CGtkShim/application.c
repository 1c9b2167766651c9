#include "cgtkshim.h"

#include <string.h>
#include <unistd.h>

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

void cshim_application_relaunch(GApplication *application) {
    GDBusConnection *connection = g_application_get_dbus_connection(application);
    if (connection != NULL) {
        g_dbus_connection_close_sync(connection, NULL, NULL);
    }
    gchar *contents = NULL;
    gsize length = 0;
    if (!g_file_get_contents("/proc/self/cmdline", &contents, &length, NULL)) {
        return;
    }
    GPtrArray *arguments = g_ptr_array_new();
    for (gsize offset = 0; offset < length; offset += strlen(contents + offset) + 1) {
        g_ptr_array_add(arguments, contents + offset);
    }
    g_ptr_array_add(arguments, NULL);
    execv("/proc/self/exe", (char **)arguments->pdata);
    g_ptr_array_free(arguments, TRUE);
    g_free(contents);
}
