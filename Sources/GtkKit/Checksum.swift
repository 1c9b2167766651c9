import CGtk

public enum Checksum {
    /// Lower-case hex SHA-256 of a string (GLib's implementation), for cache file names.
    public static func sha256(_ text: String) -> String {
        let digest = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1)!
        defer { g_free(digest) }
        return String(cString: digest)
    }

    /// Lower-case hex MD5 of a string: the name the thumbnail specification gives a URI's thumbnail.
    public static func md5(_ text: String) -> String {
        let digest = g_compute_checksum_for_string(G_CHECKSUM_MD5, text, -1)!
        defer { g_free(digest) }
        return String(cString: digest)
    }
}
