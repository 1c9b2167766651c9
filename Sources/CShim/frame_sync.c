/* Frame sync (_NET_WM_FRAME_DRAWN) is a conversation with a compositing window manager. With no
 * window manager at all, GDK still asks the X server at the end of every frame whether one has
 * appeared (GTK 3 only remembers a window manager it found), and that round trip waits for the
 * server to finish drawing the whole frame: the window's thread stalls for as long as the server
 * draws. Such a window has nobody to sync with, so it syncs only while a window manager runs. */
#include "cshim.h"
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>

static void update_frame_sync(GtkWidget *window) {
    GdkWindow *surface = gtk_widget_get_window(window);
    if (surface == NULL || !GDK_IS_X11_WINDOW(surface)) {
        return;
    }
    /* One question to the server, asked here and when the window manager changes, not per frame. */
    GdkScreen *screen = gdk_window_get_screen(surface);
    const gchar *manager = gdk_x11_screen_get_window_manager_name(screen);
    gdk_x11_window_set_frame_sync_enabled(surface, g_strcmp0(manager, "unknown") != 0);
}

static void window_manager_changed(GdkScreen *screen, gpointer window) {
    (void)screen;
    update_frame_sync(GTK_WIDGET(window));
}

static void realized(GtkWidget *window, gpointer data) {
    (void)data;
    update_frame_sync(window);
}
#endif

void cshim_sync_frames_only_with_a_window_manager(GtkWidget *window) {
#ifdef GDK_WINDOWING_X11
    g_signal_connect(window, "realize", G_CALLBACK(realized), NULL);
    /* Disconnected when the window goes: the screen outlives it. */
    g_signal_connect_object(gtk_widget_get_screen(window), "window-manager-changed",
                            G_CALLBACK(window_manager_changed), window, 0);
#else
    (void)window;
#endif
}
