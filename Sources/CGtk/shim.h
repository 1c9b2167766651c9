#include <gtk/gtk.h>
#include <gtk/gtk-a11y.h>
