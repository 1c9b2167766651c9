#include "cgtkshim.h"

GtkWidget *cshim_widget(gpointer instance) {
    return GTK_WIDGET(instance);
}

GtkWidget *cshim_message_dialog_new(GtkWindow *parent, GtkMessageType type, const gchar *primary,
                                    const gchar *secondary) {
    GtkWidget *dialog = gtk_message_dialog_new(parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT, type,
                                               GTK_BUTTONS_NONE, "%s", primary);
    if (secondary != NULL) {
        gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(dialog), "%s", secondary);
    }
    return dialog;
}
