import CGtk
import CShim

/// A GtkApplication: one instance per session; a second launch activates the first.
public final class Application: Object {
    public init(id: String) {
        super.init(owning: gtk_application_new(id, G_APPLICATION_DEFAULT_FLAGS))
    }

    /// Keeps GDK from opening OpenGL on X11 (unless the user's GDK_GL says otherwise): an app that
    /// paints with cairo alone would load Mesa and LLVM for nothing, 50 MB and a slower start.
    /// Call before GTK starts.
    public static func paintWithoutOpenGL() {
        setenv("GDK_GL", "disable", 0)
    }

    public func onActivate(_ handler: @escaping VoidHandler) { on("activate", handler) }
    public func onShutdown(_ handler: @escaping VoidHandler) { on("shutdown", handler) }

    /// Runs the main loop until the last window closes; returns the exit status.
    public func run(arguments: [String]) -> Int32 {
        var cArguments = arguments.map { strdup($0) }
        defer { cArguments.forEach { free($0) } }
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

    public func setAccelerators(_ accelerators: [String], for detailedAction: String) {
        var cStrings: [UnsafePointer<gchar>?] = accelerators.map { UnsafePointer(strdup($0)) }
        cStrings.append(nil)
        defer { cStrings.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        gtk_application_set_accels_for_action(typed(), detailedAction, cStrings)
    }

    /// Loads the app's CSS for the whole screen, above the theme.
    public static func applyStyleSheet(_ css: String) {
        let provider = gtk_css_provider_new()
        defer { g_object_unref(provider) }
        gtk_css_provider_load_from_data(provider, css, gssize(css.utf8.count), nil)
        gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), OpaquePointer(provider),
                                                  guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}

/// A GSimpleAction that can be enabled and disabled (undo when there is nothing to undo).
public final class Action: Object {
    override init(owning pointer: gpointer) { super.init(owning: pointer) }

    convenience init(name: String, _ handler: @escaping VoidHandler) {
        self.init(owning: UnsafeMutableRawPointer(g_simple_action_new(name, nil)))
        // "activate" passes the action's parameter (a GVariant, NULL here) before the user data.
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
        }
        connect(pointer, "activate", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
    }

    public var enabled: Bool {
        get { g_action_get_enabled(OpaquePointer(pointer)) != 0 }
        set { g_simple_action_set_enabled(OpaquePointer(pointer), newValue ? 1 : 0) }
    }
}

public final class ApplicationWindow: Container {
    public init(application: Application, title: String) {
        // GTK owns its toplevels (they are never floating): this wrapper holds a reference of its own.
        super.init(borrowing: gtk_application_window_new(application.typed()))
        gtk_window_set_title(typed(), title)
        cshim_sync_frames_only_with_a_window_manager(widget)
    }

    public var title: String {
        get { gtk_window_get_title(typed()).map { String(cString: $0) } ?? "" }
        set { if newValue != title { gtk_window_set_title(typed(), newValue) } }
    }

    /// Whether this is the window the user works in (it has the keyboard).
    public var isActive: Bool { gtk_window_is_active(typed()) != 0 }

    /// The window became active, or stopped being active.
    public func onActiveChanged(_ handler: @escaping @MainActor (Bool) -> Void) {
        typealias Handler = @MainActor (Bool) -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { window, _, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            let active = gtk_window_is_active(window?.assumingMemoryBound(to: GtkWindow.self)) != 0
            onMain { box.handler(active) }
        }
        connect(pointer, "notify::is-active", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    public func setTitlebar(_ titlebar: Widget) { gtk_window_set_titlebar(typed(), titlebar.widget) }
    public func setDefaultSize(width: Int32, height: Int32) { gtk_window_set_default_size(typed(), width, height) }
    /// The window's own size (without the frame), as the user left it; the last one it had when maximized.
    public var size: (width: Int, height: Int) {
        var width: gint = 0
        var height: gint = 0
        gtk_window_get_size(typed(), &width, &height)
        return (Int(width), Int(height))
    }
    public var isMaximized: Bool { gtk_window_is_maximized(typed()) != 0 }
    public func maximize() { gtk_window_maximize(typed()) }
    public func setIconName(_ name: String) { gtk_window_set_icon_name(typed(), name) }
    public func present() { gtk_window_present(typed()) }
    /// Closes the window as its close button would.
    public func close() { gtk_window_close(typed()) }

    /// Adds a window action (`win.NAME`).
    public func addAction(_ name: String, _ handler: @escaping VoidHandler) -> Action {
        let action = Action(name: name, handler)
        g_action_map_add_action(OpaquePointer(pointer), OpaquePointer(action.pointer))
        return action
    }
}

public enum IconTheme {
    /// Looks for icons in `path` too (a `hicolor`-style tree), after the installed ones.
    @MainActor public static func appendSearchPath(_ path: String) {
        gtk_icon_theme_append_search_path(gtk_icon_theme_get_default(), path)
    }
}
