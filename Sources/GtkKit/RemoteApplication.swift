import CGtk
import Foundation
import GLibKit

/// A GApplication on the session bus, seen from another process: its actions activated with a parameter
/// (`org.freedesktop.Application.ActivateAction`), and the program started when it is not running.
public enum RemoteApplication {
    public enum Failure: Error, Equatable, Sendable {
        /// No process owns the name and D-Bus could not start one.
        case notRunning
        case failed(String)
    }

    /// Activates `app.<action>` of the application `id` with a string parameter.
    public static func activateAction(
        applicationID id: String, action: String, parameter: String, timeoutMilliseconds: Int32
    ) -> Failure? {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            defer { g_error_free(error) }
            return .failed(error.map { String(cString: $0.pointee.message) } ?? "no session bus")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        let variantType = g_variant_type_new("v")
        let dictionaryType = g_variant_type_new("{sv}")
        defer {
            g_variant_type_free(variantType)
            g_variant_type_free(dictionaryType)
        }
        var wrapped: OpaquePointer? = g_variant_new_variant(g_variant_new_string(parameter))
        var children: [OpaquePointer?] = [
            g_variant_new_string(action), g_variant_new_array(variantType, &wrapped, 1),
            g_variant_new_array(dictionaryType, nil, 0),
        ]
        let arguments = g_variant_new_tuple(&children, gsize(children.count))
        let objectPath = "/" + id.replacingOccurrences(of: ".", with: "/")
        let reply = g_dbus_connection_call_sync(
            connection, id, objectPath, "org.freedesktop.Application", "ActivateAction", arguments, nil,
            G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds, nil, &error)
        if let reply {
            g_variant_unref(reply)
            return nil
        }
        defer { g_error_free(error) }
        let remote = g_dbus_error_get_remote_error(error).map { name in
            defer { g_free(name) }
            return String(cString: name)
        }
        if remote == "org.freedesktop.DBus.Error.ServiceUnknown"
            || remote == "org.freedesktop.DBus.Error.NameHasNoOwner"
        {
            return .notRunning
        }
        return .failed(error.map { String(cString: $0.pointee.message) } ?? "no answer")
    }

    /// Starts `program` with `arguments` in a session of its own, its input and output on /dev/null, so it lives on
    /// when the process that started it is ended; false when it could not be started.
    public static func launchDetached(_ program: String, arguments: [String]) -> Bool {
        var argv: [UnsafeMutablePointer<gchar>?] = ([program] + arguments).map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        let newSession: GSpawnChildSetupFunc = { _ in _ = setsid() }
        let flags = GSpawnFlags(
            G_SPAWN_STDIN_FROM_DEV_NULL.rawValue | G_SPAWN_STDOUT_TO_DEV_NULL.rawValue
                | G_SPAWN_STDERR_TO_DEV_NULL.rawValue)
        var error: UnsafeMutablePointer<GError>?
        let started = g_spawn_async(nil, &argv, nil, flags, newSession, nil, nil, &error)
        if let error { g_error_free(error) }
        return started != 0
    }
}
