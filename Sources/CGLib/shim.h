#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
