import CGLib

/// File names compared the way GNOME Files sorts them: locale-aware, digits by their value
/// ("img2" before "img10"). Safe on any thread.
public enum FileNameOrder {
    /// A key whose byte order is the names' order (`g_utf8_collate_key_for_filename`).
    public static func key(_ name: String) -> [UInt8] {
        guard let key = g_utf8_collate_key_for_filename(name, -1) else { return Array(name.utf8) }
        defer { g_free(key) }
        return Array(String(cString: key).utf8)
    }

    public static func sorted<T>(_ items: [T], by name: (T) -> String) -> [T] {
        items.map { (key(name($0)), $0) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
    }
}
