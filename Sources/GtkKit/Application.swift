import CGtk
import CGtkShim
import GLibKit

/// A GtkApplication: one instance per session; a second launch activates the first.
public final class Application: Object {
    public init(id: String) {
        super.init(owning: cshim_application_new(id, G_APPLICATION_DEFAULT_FLAGS))
    }

    /// Keeps GDK from opening OpenGL on X11 (unless the user's GDK_GL says otherwise): an app that
    /// paints with cairo alone would load Mesa and LLVM for nothing (Tests/benchmarks/README.md).
    /// Call before GTK starts.
    public static func paintWithoutOpenGL() {
        setenv("GDK_GL", "disable", 0)
    }

    /// Names the program after the application id: X11's WM_CLASS and Wayland's app_id come from it,
    /// and docks match windows to the desktop file by them. Call before GTK starts.
    public static func setProgramName(_ name: String) {
        g_set_prgname(name)
    }

    public func onActivate(_ handler: @escaping VoidHandler) { on("activate", handler) }
    /// The application has its session bus connection and does not own its name yet: D-Bus objects
    /// exported now answer the call that started it.
    public func onDBusRegistered(_ handler: @escaping @MainActor (DBusConnection) -> Void) {
        typealias Handler = @MainActor (DBusConnection) -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, connection, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            let bound = MainThreadBound(connection)
            onMain { bound.value.map { box.handler(DBusConnection(borrowing: $0)) } }
        }
        connect(pointer, "dbus-registered", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
    }
    public func onShutdown(_ handler: @escaping VoidHandler) { on("shutdown", handler) }

    /// Starts the app again in this process (same program, same arguments), without a shutdown: for
    /// what every part of it must open anew (the library moved). Returns only when that failed.
    public func relaunch() {
        cshim_application_relaunch(typed())
    }

    /// Runs the main loop until the last window closes; returns the exit status.
    public func run(arguments: [String]) -> Int32 {
        var cArguments = arguments.map { strdup($0) }
        defer { for pointer in cArguments { free(pointer) } }
        return cArguments.withUnsafeMutableBufferPointer { buffer in
            g_application_run(typed(), gint(buffer.count), buffer.baseAddress)
        }
    }

    /// Ends the main loop; `shutdown` handlers run first.
    public func quit() { g_application_quit(typed()) }

    /// Adds an application action (`app.NAME`) with keyboard accelerators.
    public func addAction(_ name: String, accelerators: [String] = [], _ handler: @escaping VoidHandler) -> Action {
        let action = Action(name: name, handler)
        g_action_map_add_action(OpaquePointer(pointer), OpaquePointer(action.pointer))
        setAccelerators(accelerators, for: "app.\(name)")
        return action
    }

    /// An application action with a boolean state (a check item in menus); activating it flips the state and
    /// calls `handler` with the new one.
    public func addToggleAction(_ name: String, state: Bool, _ handler: @escaping @MainActor (Bool) -> Void) -> Action {
        let action = Action(name: name, toggleState: state, handler)
        g_action_map_add_action(OpaquePointer(pointer), OpaquePointer(action.pointer))
        return action
    }

    /// An application action with a string parameter (`app.NAME`), which other processes activate over D-Bus too.
    public func addAction(_ name: String, parameter: String.Type, _ handler: @escaping @MainActor (String) -> Void)
        -> Action
    {
        let action = Action(name: name, stringHandler: handler)
        g_action_map_add_action(OpaquePointer(pointer), OpaquePointer(action.pointer))
        return action
    }

    public func setAccelerators(_ accelerators: [String], for detailedAction: String) {
        var cStrings: [UnsafePointer<gchar>?] = accelerators.map { UnsafePointer(strdup($0)) }
        cStrings.append(nil)
        defer { for pointer in cStrings { free(UnsafeMutableRawPointer(mutating: pointer)) } }
        gtk_application_set_accels_for_action(typed(), detailedAction, cStrings)
    }

    /// Loads the app's CSS for the whole screen, above the theme.
    public static func applyStyleSheet(_ css: String) {
        let provider = gtk_css_provider_new()
        defer { g_object_unref(provider) }
        gtk_css_provider_load_from_data(provider, css, gssize(css.utf8.count), nil)
        gtk_style_context_add_provider_for_screen(
            gdk_screen_get_default(), OpaquePointer(provider),
            guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
