import CCrypto
import CGLib
import CShim
import Foundation

/// The digests that name files: a kept original (SHA-256 of its bytes), a cached download and a thumbnail.
public enum Checksum {
    /// Lower-case hex SHA-256 of a string (GLib's implementation), for cache file names.
    public static func sha256(_ text: String) -> String {
        let digest = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1)!
        defer { g_free(digest) }
        return String(cString: digest)
    }

    /// Lower-case hex SHA-256 of bytes: the name the library keeps an image's original under. OpenSSL's,
    /// which uses the processor's SHA instructions: GLib's took longer than decoding the image's header.
    public static func sha256(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        data.withUnsafeBytes { buffer in
            cshim_sha256(buffer.baseAddress, buffer.count, &digest)
        }
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// Lower-case hex MD5 of a string: the name the thumbnail specification gives a URI's thumbnail.
    public static func md5(_ text: String) -> String {
        let digest = g_compute_checksum_for_string(G_CHECKSUM_MD5, text, -1)!
        defer { g_free(digest) }
        return String(cString: digest)
    }
}
