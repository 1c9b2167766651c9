import CGtk
import Foundation

/// The bytes of one target, as a drop receives them or a drag source fills them (during the callback).
public struct SelectionData {
    let data: OpaquePointer

    public var target: String {
        guard let name = gdk_atom_name(gtk_selection_data_get_target(data)) else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// The raw bytes, or nil when the source sent nothing (length < 0).
    public var bytes: [UInt8]? {
        let length = gtk_selection_data_get_length(data)
        guard length >= 0 else { return nil }
        guard length > 0, let start = gtk_selection_data_get_data(data) else { return [] }
        return Array(UnsafeBufferPointer(start: start, count: Int(length)))
    }

    public func set(_ bytes: [UInt8], as target: String) {
        bytes.withUnsafeBufferPointer { buffer in
            gtk_selection_data_set(data, gdk_atom_intern(target, 0), 8, buffer.baseAddress, gint(buffer.count))
        }
    }

    public func setURIs(_ uris: [String]) {
        var cStrings: [UnsafeMutablePointer<gchar>?] = uris.map { strdup($0) }
        cStrings.append(nil)
        defer { for pointer in cStrings { free(pointer) } }
        cStrings.withUnsafeMutableBufferPointer { buffer in
            _ = gtk_selection_data_set_uris(data, buffer.baseAddress)
        }
    }

    public func setText(_ text: String) { gtk_selection_data_set_text(data, text, -1) }
}

/// Valid only during the callback that received it, on the GTK thread.
@available(*, unavailable)
extension SelectionData: Sendable {}
