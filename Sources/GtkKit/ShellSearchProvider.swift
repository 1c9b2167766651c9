import CGtk
import CShim
import GLibKit

/// GNOME Shell's search provider (`org.gnome.Shell.SearchProvider2`), exported on the application's
/// session bus connection: the overview sends it what the user types and shows what it answers. Method
/// calls arrive on the GTK thread; results may be answered later (a search runs off it).
@MainActor
public final class ShellSearchProvider {
    /// What the overview shows of one result.
    public struct ResultMeta: Sendable {
        public var id: String
        public var name: String
        public var description: String?
        public var icon: Icon

        public init(id: String, name: String, description: String?, icon: Icon) {
            self.id = id
            self.name = name
            self.description = description
            self.icon = icon
        }
    }

    /// What the shell draws as a result's icon: it decodes a file itself, so only one the app made should be named.
    public enum Icon: Sendable {
        case file(path: String)
        /// An icon of the theme, by name.
        case themed(name: String)
    }

    /// Answers what the overview shows of results: their ids, and the reply.
    public typealias Metas =
        @MainActor (_ ids: [String], _ reply: @escaping @Sendable @MainActor ([ResultMeta]) -> Void) -> Void

    /// Answers a search: the terms, the earlier results to narrow (nil for a new search), and the reply.
    public typealias Search =
        @MainActor (
            _ terms: [String], _ previous: [String]?, _ reply: @escaping @Sendable @MainActor ([String]) -> Void
        ) -> Void

    public struct Handlers: Sendable {
        public var search: Search
        public var metas: Metas
        public var activate: @MainActor (_ id: String, _ terms: [String]) -> Void
        public var launchSearch: @MainActor (_ terms: [String]) -> Void

        public init(
            search: @escaping Search, metas: @escaping Metas,
            activate: @escaping @MainActor (String, [String]) -> Void,
            launchSearch: @escaping @MainActor ([String]) -> Void
        ) {
            self.search = search
            self.metas = metas
            self.activate = activate
            self.launchSearch = launchSearch
        }
    }

    public static let interfaceXML = """
        <node>
          <interface name="org.gnome.Shell.SearchProvider2">
            <method name="GetInitialResultSet">
              <arg type="as" name="terms" direction="in"/>
              <arg type="as" name="results" direction="out"/>
            </method>
            <method name="GetSubsearchResultSet">
              <arg type="as" name="previous_results" direction="in"/>
              <arg type="as" name="terms" direction="in"/>
              <arg type="as" name="results" direction="out"/>
            </method>
            <method name="GetResultMetas">
              <arg type="as" name="identifiers" direction="in"/>
              <arg type="aa{sv}" name="metas" direction="out"/>
            </method>
            <method name="ActivateResult">
              <arg type="s" name="identifier" direction="in"/>
              <arg type="as" name="terms" direction="in"/>
              <arg type="u" name="timestamp" direction="in"/>
            </method>
            <method name="LaunchSearch">
              <arg type="as" name="terms" direction="in"/>
              <arg type="u" name="timestamp" direction="in"/>
            </method>
          </interface>
        </node>
        """

    private let connection: DBusConnection
    private let registrationID: guint

    /// Exports the provider at `objectPath` of `connection`; nil when the object cannot be exported there.
    public init?(connection: DBusConnection, objectPath: String, handlers: Handlers) {
        guard let node = g_dbus_node_info_new_for_xml(Self.interfaceXML, nil) else { return nil }
        defer { g_dbus_node_info_unref(node) }
        let methodCall: GDBusInterfaceMethodCallFunc = {
            _, _, _, _, method, parameters, invocation, userData in
            let box = CallbackBox<Handlers>.from(userData: userData)
            let call = MainThreadBound((method.map { String(cString: $0) } ?? "", parameters, invocation))
            onMain {
                let (method, parameters, invocation) = call.value
                ShellSearchProvider.answer(method, parameters, invocation, box.handler)
            }
        }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = methodCall
        let box = CallbackBox(handlers)
        let id = g_dbus_connection_register_object(
            OpaquePointer(connection.pointer), objectPath, node.pointee.interfaces[0], &vtable, box.retainedPointer,
            CallbackBox<Handlers>.destroyNotify, nil)
        guard id != 0 else { return nil }
        self.connection = connection
        registrationID = id
    }

    /// Stops answering (the application shuts down).
    public func unregister() {
        g_dbus_connection_unregister_object(OpaquePointer(connection.pointer), registrationID)
    }

    private static func answer(
        _ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer?, _ handlers: Handlers
    ) {
        let replied = MainThreadBound(invocation)
        switch method {
        case "GetInitialResultSet", "GetSubsearchResultSet":
            let initial = method == "GetInitialResultSet"
            let terms = strings(parameters, initial ? 0 : 1)
            handlers.search(terms, initial ? nil : strings(parameters, 0)) { ids in
                var child: OpaquePointer? = strv(ids)
                g_dbus_method_invocation_return_value(replied.value, g_variant_new_tuple(&child, 1))
            }
        case "GetResultMetas":
            handlers.metas(strings(parameters, 0)) { results in
                var child: OpaquePointer? = metas(results)
                g_dbus_method_invocation_return_value(replied.value, g_variant_new_tuple(&child, 1))
            }
        case "ActivateResult":
            let id = g_variant_get_child_value(parameters, 0).map { child in
                defer { g_variant_unref(child) }
                return String(cString: g_variant_get_string(child, nil))
            }
            handlers.activate(id ?? "", strings(parameters, 1))
            g_dbus_method_invocation_return_value(invocation, nil)
        case "LaunchSearch":
            handlers.launchSearch(strings(parameters, 0))
            g_dbus_method_invocation_return_value(invocation, nil)
        default:
            g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.UnknownMethod", "No such method")
        }
    }

    /// The array of strings at `index` of a tuple.
    private static func strings(_ tuple: OpaquePointer?, _ index: Int) -> [String] {
        guard let child = g_variant_get_child_value(tuple, gsize(index)) else { return [] }
        defer { g_variant_unref(child) }
        var length: gsize = 0
        guard let array = g_variant_get_strv(child, &length) else { return [] }
        defer { g_free(UnsafeMutableRawPointer(mutating: array)) }
        return (0..<Int(length)).compactMap { array[$0].map { String(cString: $0) } }
    }

    private static func strv(_ values: [String]) -> OpaquePointer? {
        var copies: [UnsafeMutablePointer<gchar>?] = values.map { strdup($0) }
        defer { for pointer in copies { free(pointer) } }
        return copies.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map {
                $0.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) {
                    g_variant_new_strv($0, gssize(values.count))
                }
            } ?? g_variant_new_strv(nil, 0)
        }
    }

    /// `aa{sv}`: for each result its id, name, description and, as `gicon`, its icon.
    private static func metas(_ metas: [ResultMeta]) -> OpaquePointer? {
        let arrayType = g_variant_type_new("aa{sv}")
        let dictionaryType = g_variant_type_new("a{sv}")
        defer {
            g_variant_type_free(arrayType)
            g_variant_type_free(dictionaryType)
        }
        let array = g_variant_builder_new(arrayType)
        defer { g_variant_builder_unref(array) }
        for meta in metas {
            let dictionary = g_variant_builder_new(dictionaryType)
            defer { g_variant_builder_unref(dictionary) }
            var fields = [("id", meta.id), ("name", meta.name)]
            if let description = meta.description { fields.append(("description", description)) }
            if let text = iconText(meta.icon) { fields.append(("gicon", text)) }
            for (key, value) in fields {
                g_variant_builder_add_value(
                    dictionary,
                    g_variant_new_dict_entry(
                        g_variant_new_string(key), g_variant_new_variant(g_variant_new_string(value))))
            }
            g_variant_builder_add_value(array, g_variant_builder_end(dictionary))
        }
        return g_variant_builder_end(array)
    }

    /// The icon as `g_icon_to_string` writes it, which the shell reads back with `g_icon_new_for_string`.
    private static func iconText(_ icon: Icon) -> String? {
        let made: OpaquePointer?
        switch icon {
        case .file(let path):
            guard let file = g_file_new_for_path(path) else { return nil }
            made = g_file_icon_new(file)
            g_object_unref(UnsafeMutableRawPointer(file))
        case .themed(let name): made = g_themed_icon_new(name)
        }
        guard let made else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(made)) }
        guard let text = g_icon_to_string(made) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
