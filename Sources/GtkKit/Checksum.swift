import CGtk
import Foundation

public enum Checksum {
    /// Lower-case hex SHA-256 of a string (GLib's implementation), for cache file names.
    public static func sha256(_ text: String) -> String {
        let digest = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1)!
        defer { g_free(digest) }
        return String(cString: digest)
    }

    /// Lower-case hex SHA-256 of bytes: the name the library keeps an image's original under.
    public static func sha256(_ data: Data) -> String {
        let checksum = g_checksum_new(G_CHECKSUM_SHA256)!
        defer { g_checksum_free(checksum) }
        data.withUnsafeBytes { buffer in
            // In slices: `g_checksum_update` takes a signed length.
            var offset = 0
            while offset < buffer.count {
                let count = min(buffer.count - offset, 1 << 30)
                g_checksum_update(
                    checksum, buffer.baseAddress!.advanced(by: offset).assumingMemoryBound(to: guchar.self),
                    gssize(count))
                offset += count
            }
        }
        return String(cString: g_checksum_get_string(checksum))
    }

    /// Lower-case hex MD5 of a string: the name the thumbnail specification gives a URI's thumbnail.
    public static func md5(_ text: String) -> String {
        let digest = g_compute_checksum_for_string(G_CHECKSUM_MD5, text, -1)!
        defer { g_free(digest) }
        return String(cString: digest)
    }
}
