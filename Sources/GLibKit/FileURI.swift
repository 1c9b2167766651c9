import CGLib

public enum FileURI {
    /// The file:// URI GLib gives a path (escaped the way every GIO application writes it, which
    /// is what thumbnail names are hashed from).
    public static func from(path: String) -> String? {
        guard let uri = g_filename_to_uri(path, nil, nil) else { return nil }
        defer { g_free(uri) }
        return String(cString: uri)
    }
}
