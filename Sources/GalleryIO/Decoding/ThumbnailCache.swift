import Foundation
import GLibKit
import GalleryCore

/// Thumbnails as the freedesktop.org specification keeps them
/// (`$XDG_CACHE_HOME/thumbnails/<size>/<md5 of the file's URI>.png`, with `Thumb::URI` and
/// `Thumb::MTime`): a scroll or a relaunch reads a small PNG instead of decoding a 2,000-pixel
/// photo, and thumbnails Files or gThumb made serve here too. Downloaded images are thumbnailed
/// through their cache file. Safe on any thread.
public struct ThumbnailCache: Sendable {
    /// A local file an image's pixels come from, as the specification names it.
    public struct Original: Sendable {
        public let path: String
        public let uri: String
        /// Seconds since the epoch: a thumbnail of another modification time is stale.
        public let modified: Int

        public init?(path: String) {
            guard let modified = FileReader.modificationSeconds(ofFile: path), let uri = FileURI.from(path: path)
            else { return nil }
            self.path = path
            self.uri = uri
            self.modified = modified
        }
    }

    public let root: URL

    public init(cacheHome: URL) {
        root = cacheHome.appendingPathComponent("thumbnails", isDirectory: true)
    }

    public func file(for uri: String, size: ThumbnailSize) -> URL {
        root.appendingPathComponent(size.folderName, isDirectory: true)
            .appendingPathComponent(Checksum.md5(uri) + ".png")
    }

    /// The thumbnail of `original` at `size`, if there is one made from the file as it is now.
    public func read(_ original: Original, size: ThumbnailSize) -> DecodedImage<Pixbuf>? {
        let path = file(for: original.uri, size: size).path
        let expected: [(key: String, value: String)] = [
            ("Thumb::URI", original.uri), ("Thumb::MTime", String(original.modified)),
        ]
        // Not opened unless a regular file: gdk-pixbuf's open would wait on a FIFO for good.
        guard FileReader.kind(of: path) == .regularFile,
            let pixbuf = Pixbuf.loadThumbnail(contentsOf: path, expectedText: expected),
            expected.allSatisfy({ pixbuf.text($0.key) == $0.value })
        else { return nil }
        // Without the original's size (other apps may leave it out), the thumbnail's shape stands in.
        let width = pixbuf.text("Thumb::Image::Width").flatMap(Int.init) ?? 0
        let height = pixbuf.text("Thumb::Image::Height").flatMap(Int.init) ?? 0
        guard width > 0, height > 0 else {
            return DecodedImage(bitmap: pixbuf, originalWidth: pixbuf.width, originalHeight: pixbuf.height)
        }
        return DecodedImage(bitmap: pixbuf, originalWidth: width, originalHeight: height)
    }

    /// The file of a thumbnail of `original` as it is now that this app wrote (from its own decode, within its
    /// limits), at the first of `sizes` that has one; nil if none. Read whole: the text must be the app's, and the
    /// pixels no larger than `size` says.
    public func ownFile(of original: Original, sizes: [ThumbnailSize]) -> String? {
        let expected: [(key: String, value: String)] = [
            ("Thumb::URI", original.uri), ("Thumb::MTime", String(original.modified)),
            (untranslated("Software"), Self.software),
        ]
        return sizes.lazy.compactMap { size -> String? in
            let path = file(for: original.uri, size: size).path
            guard FileReader.kind(of: path) == .regularFile,
                let pixbuf = Pixbuf.loadThumbnail(contentsOf: path, maximumSide: size.rawValue, expectedText: expected),
                expected.allSatisfy({ pixbuf.text($0.key) == $0.value })
            else { return nil }
            return path
        }.first
    }

    /// What the thumbnails this app writes name as their maker.
    static let software = untranslated("Image Gallery")

    /// Keeps `picture` (decoded to fit `size`) as the thumbnail of `original`. Written to a
    /// temporary file and renamed, as the specification asks, so a reader never sees half a PNG;
    /// private to the user (0600 in a 0700 folder). A failure only costs a decode next time.
    public func write(_ picture: DecodedImage<Pixbuf>, of original: Original, size: ThumbnailSize) {
        let target = file(for: original.uri, size: size)
        try? FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(),
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        guard
            let png = picture.bitmap.storedPNG(text: [
                ("Thumb::URI", original.uri),
                ("Thumb::MTime", String(original.modified)),
                ("Thumb::Image::Width", String(picture.originalWidth)),
                ("Thumb::Image::Height", String(picture.originalHeight)),
                (untranslated("Software"), Self.software),
            ])
        else { return }
        try? FileWriter.cache.write(png, to: target.path, policy: .replace)
    }

    /// Forgets the thumbnails of a file that is gone (a cached download pruned).
    public func remove(thumbnailsOf path: String) {
        guard let uri = FileURI.from(path: path) else { return }
        for size in ThumbnailSize.allCases {
            try? FileManager.default.removeItem(at: file(for: uri, size: size))
        }
    }
}
