#include "cshim.h"

gulong cshim_signal_connect(gpointer instance, const gchar *signal, GCallback handler,
                            gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, 0);
}

void cshim_signal_emit_void(gpointer instance, const gchar *signal) {
    g_signal_emit_by_name(instance, signal);
}
