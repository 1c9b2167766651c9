import Foundation
import GalleryCore
import GtkKit

/// Files from the disk (dropped from Files, chosen in the file chooser): a folder stands for the
/// images it holds, in the order Files shows them ("img2" before "img10"), its other files skipped.
enum LocalFiles {
    struct Listing: Sendable {
        var images: [DroppedImage] = []
        /// Names of files in the folders that are not images.
        var skipped: [String] = []
        /// Folders with nothing to add, not even a file to skip.
        var emptyFolders: [String] = []

        /// One message for everything left out, or nil.
        var message: String? {
            if let name = skipped.first, skipped.count == 1 {
                return tr("“{file}” was skipped: it is not an image", ["file": name])
            }
            if !skipped.isEmpty {
                return trPlural(
                    "{count} file was skipped: it is not an image", "{count} files were skipped: they are not images",
                    skipped.count)
            }
            if let folder = emptyFolders.first { return tr("“{folder}” holds no images", ["folder": folder]) }
            return nil
        }
    }

    static func isLocalFile(_ image: DroppedImage) -> Bool {
        image.url.flatMap(URL.init(string:))?.isFileURL == true
    }

    /// Replaces each folder by its images (the files directly in it, hidden ones left out);
    /// everything else passes unchanged. Reads the disk: run it on a worker.
    static func expand(_ images: [DroppedImage], imageExtensions: Set<String>) -> Listing {
        var listing = Listing()
        for image in images {
            guard let url = image.url.flatMap(URL.init(string:)), url.isFileURL, isDirectory(url.path) else {
                listing.images.append(image)
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            var found = 0
            for name in FileNameOrder.sorted(names.filter { !$0.hasPrefix(".") }, by: { $0 }) {
                let file = url.appendingPathComponent(name)
                guard isRegularFile(file.path) else { continue }
                if isImage(file, imageExtensions: imageExtensions) {
                    listing.images.append(DroppedImage(url: file.absoluteString))
                    found += 1
                } else {
                    listing.skipped.append(name)
                }
            }
            if found == 0 && listing.skipped.isEmpty { listing.emptyFolders.append(url.lastPathComponent) }
        }
        return listing
    }

    /// An image by its first bytes, or by a name gdk-pixbuf reads (formats without a signature
    /// this app knows: XPM, TGA, PNM).
    private static func isImage(_ file: URL, imageExtensions: Set<String>) -> Bool {
        if imageExtensions.contains(file.pathExtension.lowercased()) { return true }
        guard let handle = FileHandle(forReadingAtPath: file.path) else { return false }
        defer { try? handle.close() }
        return DropPayload.sniffImageType(Array(handle.readData(ofLength: 4096))) != nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && !directory.boolValue
    }

    /// What the file chooser's "Images" filter shows and a folder's files are taken by: every
    /// format gdk-pixbuf reads here.
    @MainActor static let pixbufFormats = PixbufFormat.readable()

    @MainActor static var imageExtensions: Set<String> {
        Set(pixbufFormats.flatMap(\.extensions).map { $0.lowercased() })
    }
}
