import CGtk
import Foundation
import GLibKit

/// Handing things to the rest of the desktop: the default application for an address, the file
/// manager for a file. Nothing here waits on the main loop; each answer comes back on it.
@MainActor
public enum Desktop {
    /// Why the desktop could not do it, in GLib's words (translated by GLib), when it said.
    public struct Failure: Error, Sendable {
        public let message: String?
    }

    private typealias Completion = @MainActor (Failure?) -> Void

    /// Opens `uri` in the application the desktop chose for it (a web browser for http);
    /// `completion` gets nil, or why it could not be opened.
    public static func open(_ uri: String, completion: @escaping @MainActor (Failure?) -> Void) {
        let box = CallbackBox<Completion>(completion)
        let context = gdk_display_get_app_launch_context(gdk_display_get_default())
        defer { context.map { g_object_unref(UnsafeMutableRawPointer($0)) } }
        let launchContext = context.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GAppLaunchContext.self) }
        g_app_info_launch_default_for_uri_async(
            uri, launchContext, nil,
            { _, result, userData in
                let box = Unmanaged<CallbackBox<Completion>>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let launched = g_app_info_launch_default_for_uri_finish(result, &error) != 0
                let failure = launched ? nil : Desktop.take(error)
                onMain { box.handler(failure) }
            }, box.retainedPointer)
    }

    /// Whether the help viewer finds `help:<documentID>`: its English pages sit in one of the data folders GLib
    /// lists, which are those Yelp searches.
    public static func hasHelp(_ documentID: String) -> Bool {
        var folders = [String(cString: g_get_user_data_dir())]
        if var system = g_get_system_data_dirs() {
            while let folder = system.pointee {
                folders.append(String(cString: folder))
                system += 1
            }
        }
        return folders.contains { FileManager.default.fileExists(atPath: "\($0)/help/C/\(documentID)/index.page") }
    }

    /// Whether an application on this system opens addresses of `scheme`.
    public static func hasHandler(forScheme scheme: String) -> Bool {
        guard let handler = g_app_info_get_default_for_uri_scheme(scheme) else { return false }
        g_object_unref(UnsafeMutableRawPointer(handler))
        return true
    }

    /// Opens `uri` in the application the desktop chose for addresses of `scheme` (the help viewer for
    /// `help`, given a folder of help pages). False when no application handles `scheme`; otherwise
    /// `completion` gets nil, or why it could not be opened.
    public static func open(
        _ uri: String, withHandlerOf scheme: String, completion: @escaping @MainActor (Failure?) -> Void
    ) -> Bool {
        guard let handler = g_app_info_get_default_for_uri_scheme(scheme) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(handler)) }
        let box = CallbackBox<Completion>(completion)
        let context = gdk_display_get_app_launch_context(gdk_display_get_default())
        defer { context.map { g_object_unref(UnsafeMutableRawPointer($0)) } }
        let launchContext = context.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GAppLaunchContext.self) }
        let copy = strdup(uri)
        defer { free(copy) }
        let uris = g_list_append(nil, copy)
        defer { g_list_free(uris) }
        g_app_info_launch_uris_async(
            handler, uris, launchContext, nil,
            { source, result, userData in
                let box = Unmanaged<CallbackBox<Completion>>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let launched = g_app_info_launch_uris_finish(OpaquePointer(source), result, &error) != 0
                let failure = launched ? nil : Desktop.take(error)
                onMain { box.handler(failure) }
            }, box.retainedPointer)
        return true
    }

    /// Shows files selected in their folder through the file manager's D-Bus interface
    /// (org.freedesktop.FileManager1.ShowItems, which Files, Dolphin and Nemo offer); without one,
    /// opens the first file's folder. `completion` gets nil, or why nothing could be shown.
    public static func showItems(
        _ fileURIs: [String], folderURI: String, completion: @escaping @MainActor (Failure?) -> Void
    ) {
        let box = CallbackBox<Completion>({ failure in
            if failure == nil { completion(nil) } else { open(folderURI, completion: completion) }
        })
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else {
            open(folderURI, completion: completion)
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var uris: [UnsafeMutablePointer<gchar>?] = fileURIs.map { strdup($0) } + [nil]
        defer { for pointer in uris { free(pointer) } }
        var children: [OpaquePointer?] = uris.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) {
                [g_variant_new_strv($0, gssize(fileURIs.count)), g_variant_new_string("")]
            }
        }
        let parameters = g_variant_new_tuple(&children, 2)
        g_dbus_connection_call(
            bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
            "org.freedesktop.FileManager1", "ShowItems", parameters, nil, G_DBUS_CALL_FLAGS_NONE, 10_000, nil,
            { connection, result, userData in
                let box = Unmanaged<CallbackBox<Completion>>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_finish(OpaquePointer(connection), result, &error)
                reply.map { g_variant_unref($0) }
                let failure = reply == nil ? Desktop.take(error) : nil
                onMain { box.handler(failure) }
            }, box.retainedPointer)
    }

    private nonisolated static func take(_ error: UnsafeMutablePointer<GError>?) -> Failure {
        defer { error.map { g_error_free($0) } }
        return Failure(message: error.flatMap { $0.pointee.message.map { String(cString: $0) } })
    }
}
