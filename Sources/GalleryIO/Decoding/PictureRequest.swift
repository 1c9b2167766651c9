import Foundation
import GalleryCore

/// "These bytes, fitted to this size at this scale": what a cell, the viewer or a drop asks of the
/// pipeline.
public struct PictureRequest: Sendable {
    /// How the picture is fitted to the size asked.
    public enum Fit: Sendable, Equatable {
        /// A gallery cell of this many device pixels: covered as the layout crops it, from a
        /// thumbnail when one is large enough; a picture that fills it gets its round corners.
        case cell(width: Int, height: Int, cornerRadius: Double)
        /// Inside this many device pixels, never enlarged, from the original (the viewer).
        case within(width: Int, height: Int)
    }

    public var url: String
    /// The SHA-256 of its kept original, read from the library's folder before anything else.
    public var sha256: String?
    /// Bytes already at hand (a drop's download, or what the drag carried); nil: fetched by address.
    public var bytes: Data?
    public var fit: Fit
    /// The device scale factor the surface is painted at.
    public var scale: Int
    /// Whether the picture's likeness is measured too, from the pixels decoded (an arriving image's).
    public var measuresLikeness: Bool
    /// Whether a decode of a local file leaves a thumbnail behind: not for the launch's likeness pass, which reads
    /// every image once at a size no cell asked for.
    public var leavesThumbnail: Bool

    public init(
        url: String, sha256: String? = nil, bytes: Data? = nil, fit: Fit, scale: Int, measuresLikeness: Bool = false,
        leavesThumbnail: Bool = true
    ) {
        self.url = url
        self.sha256 = sha256
        self.bytes = bytes
        self.fit = fit
        self.scale = scale
        self.measuresLikeness = measuresLikeness
        self.leavesThumbnail = leavesThumbnail
    }
}
