#include "cgtkshim.h"

void cshim_entry_set_completions(GtkEntry *entry, const char *const *names, gint count) {
    GtkListStore *store = gtk_list_store_new(1, G_TYPE_STRING);
    for (gint i = 0; i < count; i++) {
        gtk_list_store_insert_with_values(store, NULL, -1, 0, names[i], -1);
    }
    GtkEntryCompletion *completion = gtk_entry_get_completion(entry);
    if (completion == NULL) {
        completion = gtk_entry_completion_new();
        gtk_entry_completion_set_text_column(completion, 0);
        gtk_entry_completion_set_minimum_key_length(completion, 1);
        gtk_entry_completion_set_inline_selection(completion, TRUE);
        gtk_entry_set_completion(entry, completion);
        g_object_unref(completion);
    }
    gtk_entry_completion_set_model(completion, GTK_TREE_MODEL(store));
    g_object_unref(store);
}
