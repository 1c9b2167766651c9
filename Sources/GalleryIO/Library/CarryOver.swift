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

    /// How many of the library's images a step of `findPending` looks at.
    public static let imagesPerStep = 50_000

    /// The images of `state` that have no kept original yet and can get one: web images, and bytes imported before.
    public static func pending(in state: GalleryState, importsDirectory: URL) -> [GalleryImage] {
        var found: [GalleryImage] = []
        var position: Position? = Position()
        while let start = position {
            position = look(in: state, importsDirectory: importsDirectory, from: start, count: .max, into: &found)
        }
        return found
    }

    /// Finds what `pending` names a step of `imagesPerStep` images at a time, each step a job `submit` runs (the I/O
    /// lane's, behind saves), the next submitted once the one before is done; hands the images to `then` after the
    /// last. At a million images the whole look was one job of 1.5 s, which an edit's save waited behind.
    public static func findPending(
        in state: GalleryState, importsDirectory: URL, imagesPerStep: Int = imagesPerStep,
        submitting submit: @escaping @Sendable (_ job: @escaping @Sendable () -> Void) -> Void,
        then: @escaping @Sendable ([GalleryImage]) -> Void
    ) {
        findPending(
            in: state, importsDirectory: importsDirectory, from: Position(), found: [],
            imagesPerStep: max(1, imagesPerStep), submitting: submit, then: then)
    }

    private static func findPending(
        in state: GalleryState, importsDirectory: URL, from start: Position, found: [GalleryImage],
        imagesPerStep: Int, submitting submit: @escaping @Sendable (_ job: @escaping @Sendable () -> Void) -> Void,
        then: @escaping @Sendable ([GalleryImage]) -> Void
    ) {
        submit {
            var found = found
            guard
                let next = look(
                    in: state, importsDirectory: importsDirectory, from: start, count: imagesPerStep, into: &found)
            else { return then(found) }
            findPending(
                in: state, importsDirectory: importsDirectory, from: next, found: found, imagesPerStep: imagesPerStep,
                submitting: submit, then: then)
        }
    }

    /// Where a look through the library's images stands: the next image's gallery and its index there.
    private struct Position: Sendable {
        var gallery = 0
        var image = 0
    }

    /// Looks at up to `count` images from `start` on, appending those pending to `found`, each read in place (a copy
    /// of every image was most of the look's cost); returns where the next look starts, nil once every image is seen.
    private static func look(
        in state: GalleryState, importsDirectory: URL, from start: Position, count: Int,
        into found: inout [GalleryImage]
    ) -> Position? {
        let importsPath = importsDirectory.standardizedFileURL.path + "/"
        let importsName = Array(importsDirectory.standardizedFileURL.lastPathComponent.utf8)
        var (gallery, image, left) = (start.gallery, start.image, count)
        while gallery < state.galleries.count {
            let images = state.galleries[gallery].images
            while image < images.count {
                guard left > 0 else { return Position(gallery: gallery, image: image) }
                if images[image].original == nil,
                    needsKeeping(images[image].url, importsPath: importsPath, importsName: importsName)
                {
                    found.append(images[image])
                }
                image += 1
                left -= 1
            }
            (gallery, image) = (gallery + 1, 0)
        }
        return nil
    }

    /// Whether an image without a kept original at `address` gets one: a web image, or bytes imported before.
    private static func needsKeeping(_ address: String, importsPath: String, importsName: [UInt8]) -> Bool {
        guard mayNeedKeeping(address, importsName: importsName), let url = URL(string: address),
            let scheme = url.scheme?.lowercased()
        else { return false }
        return scheme == "http" || scheme == "https"
            || (scheme == "file" && url.standardizedFileURL.path.hasPrefix(importsPath))
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
