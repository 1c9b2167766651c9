import Foundation
import GalleryCore

/// Whether an image moves, read from the header of the bytes the library has of it (`AnimationHeader`), on an I/O
/// thread: a format that cannot move (JPEG) is known from its first bytes, and only a GIF, WebP, PNG or AVIF is
/// read whole. Its answer is what the library records (`GalleryImage.animation`).
public enum AnimationSurvey {
    /// The bytes that tell a format.
    private static let headBytes = 64
    private static let formatsThatMove: Set<String> = ["GIF", "WebP", "PNG", "AVIF"]

    /// What the bytes of the image at `url` (whose kept original has this digest) say of its frames; nil when they
    /// are not here now (a web image neither kept nor cached, a file gone), to be asked again later.
    public static func summary(url: String, sha256: String?, source: ImageBytesSource) -> AnimationSummary? {
        if url.hasPrefix("data:") {
            guard case .success(let bytes)? = source.bytesAtHand(for: url) else { return nil }
            return AnimationSummary(AnimationHeader.read(bytes))
        }
        guard let path = source.localOriginal(for: url, sha256: sha256)?.path,
            let head = try? FileReader.head(path, count: headBytes)
        else { return nil }
        guard let format = ImageFormat.sniff(head)?.name, formatsThatMove.contains(format) else { return .still }
        guard let bytes = try? FileReader.read(path) else { return nil }
        return AnimationSummary(AnimationHeader.read(bytes))
    }
}
