import Foundation
import GLibKit
import GalleryCore

/// Carrying one image of the previous layout (bytes in the cache or in `imported/`) into the library's
/// originals: what needs it, and the step that fetches and keeps its bytes. The app runs the steps (see
/// OriginalsCarryOver) and records each result as it comes, so a kill midway loses nothing.
public enum CarryOver {
    /// An image kept: its original, the address to record for it instead of the old one (an old import's file), and
    /// its likeness, measured from the bytes at hand.
    public typealias Kept = (original: KeptOriginal, url: String?, likeness: Likeness?)

    /// The images of `state` that have no kept original yet and can get one: web images, and bytes imported before.
    public static func pending(in state: GalleryState, importsDirectory: URL) -> [GalleryImage] {
        let importsPath = importsDirectory.standardizedFileURL.path + "/"
        let importsName = Array(importsDirectory.standardizedFileURL.lastPathComponent.utf8)
        return state.galleries.flatMap(\.images).filter { image in
            guard image.original == nil, mayNeedKeeping(image.url, importsName: importsName),
                let url = URL(string: image.url), let scheme = url.scheme?.lowercased()
            else { return false }
            return scheme == "http" || scheme == "https"
                || (scheme == "file" && url.standardizedFileURL.path.hasPrefix(importsPath))
        }
    }

    /// Whether an address can be one to carry over, read from its bytes alone: parsing every address of a large
    /// library as a URL took 37,000 instructions an image. A file:// address can be in the imports folder only
    /// if it names that folder, or hides letters in percent escapes.
    private static func mayNeedKeeping(_ address: String, importsName: [UInt8]) -> Bool {
        var address = address
        return address.withUTF8 { bytes in
            let scheme = bytes.prefix(6).map { $0 | 0x20 }
            if scheme.starts(with: "http:".utf8) || scheme.starts(with: "https:".utf8) { return true }
            guard scheme.starts(with: "file:".utf8) else { return false }
            if bytes.contains(UInt8(ascii: "%")) { return true }
            // Byte by byte: Foundation's `contains` on strings cost 35,000 instructions an address.
            guard let first = importsName.first, bytes.count >= importsName.count else { return false }
            for start in 0...(bytes.count - importsName.count) where bytes[start] == first {
                if bytes[start..<start + importsName.count].elementsEqual(importsName) { return true }
            }
            return false
        }
    }

    /// Gets `image`'s bytes (its cached download, else its address fetched again at background priority, so the
    /// cells a window shows load first), keeps them and calls `then` on a worker thread. A download is not cached:
    /// its bytes are kept as the original, or are no image and not kept at all.
    public static func keep(
        _ image: GalleryImage, source: ImageBytesSource, importsDirectory: URL, cancellation: CancellationToken,
        then: @escaping @Sendable (Result<Kept, LoadFailure>) -> Void
    ) {
        source.fetch(image.url, priority: .background, cancellation: cancellation, caching: false) { fetched in
            then(fetched.flatMap { keep($0, of: image, in: source.originals, importsDirectory: importsDirectory) })
        }
    }

    static func keep(_ data: Data, of image: GalleryImage, in store: OriginalsStore, importsDirectory: URL)
        -> Result<Kept, LoadFailure>
    {
        // Whatever the server now sends instead of an image is not kept.
        guard let format = ImageFormat.sniff(data.prefix(4096)) else {
            return .failure(LoadFailure(description: tr("not an image")))
        }
        // Decoded once, for its likeness and to find bytes cut short, which a cell shows as an error and drops.
        let fit = (Likeness.decodedSide, Likeness.decodedSide)
        let decoded = ImageDecoder.decodePicture(StillImage.firstFrame(of: data), fit: fit)
        if case .failure(.incomplete) = decoded { return .failure(LoadFailure(.incomplete, decoding: data)) }
        let sha256: String
        do throws(FileError) {
            sha256 = try store.keep(data)
        } catch {
            return .failure(LoadFailure(description: error.description))
        }
        let header = ImageHeader.read(data)
        let original = KeptOriginal(
            sha256: sha256, byteCount: data.count, pixelWidth: header?.width ?? 0, pixelHeight: header?.height ?? 0,
            format: format.name.lowercased())
        // An old import is recorded by its kept file: the old one goes at a later launch.
        let importsPath = importsDirectory.standardizedFileURL.path + "/"
        let isImport =
            URL(string: image.url).map { $0.isFileURL && $0.standardizedFileURL.path.hasPrefix(importsPath) } ?? false
        let url = isImport ? store.path(for: sha256).flatMap(FileURI.from(path:)) : nil
        return .success((original, url, try? decoded.map { Likeness($0.bitmap) }.get()))
    }
}
