import CGtk
import GLibKit

/// A GDBusConnection: the application's own on the session bus, where it exports objects.
public final class DBusConnection: Object {}
