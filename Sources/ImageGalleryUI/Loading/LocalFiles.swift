import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// Files from the disk (dropped from Files, chosen in the file chooser): a folder stands for the
/// images it holds, in the order Files shows them ("img2" before "img10"), its other files skipped.
enum LocalFiles {
    struct Listing: Sendable {
        var images: [DroppedImage] = []
        /// Names of files in the folders that are not images.
        var skipped: [String] = []
        /// Names of FIFOs, sockets and devices in the folders (or links to them): never opened.
        var skippedSpecial: [String] = []
        /// Folders with nothing to add, not even a file to skip.
        var emptyFolders: [String] = []
        /// Folders that could not be listed, and why.
        var unreadableFolders: [(name: String, reason: String)] = []

        /// One message for everything left out, or nil.
        var message: String? {
            if let folder = unreadableFolders.first {
                return tr("“{folder}” could not be read: {reason}", ["folder": folder.name, "reason": folder.reason])
            }
            let count = skipped.count + skippedSpecial.count
            if count == 1, let name = skipped.first {
                return tr("“{file}” was skipped: it is not an image", ["file": name])
            }
            if count == 1, let name = skippedSpecial.first {
                return tr("“{file}” was skipped: it is not a regular file", ["file": name])
            }
            if skippedSpecial.isEmpty && count > 0 {
                return trPlural(
                    "{count} file was skipped: it is not an image", "{count} files were skipped: they are not images",
                    count)
            }
            if skipped.isEmpty && count > 0 {
                return trPlural(
                    "{count} file was skipped: it is not a regular file",
                    "{count} files were skipped: they are not regular files", count)
            }
            if count > 0 {
                return trPlural(
                    "{count} file was skipped: it is not an image file",
                    "{count} files were skipped: they are not image files", count)
            }
            if let folder = emptyFolders.first { return tr("“{folder}” holds no images", ["folder": folder]) }
            return nil
        }
    }

    static func isLocalFile(_ image: DroppedImage) -> Bool {
        image.url.flatMap(URL.init(string:))?.isFileURL == true
    }

    /// Replaces each folder by its images (the regular files directly in it, hidden ones left out);
    /// everything else passes unchanged. Reads the disk: run it on a worker.
    static func expand(_ images: [DroppedImage], imageExtensions: Set<String>) -> Listing {
        var listing = Listing()
        for image in images {
            guard let url = image.url.flatMap(URL.init(string:)), url.isFileURL,
                FileReader.kind(of: url.path) == .folder
            else {
                listing.images.append(image)
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            } catch {
                listing.unreadableFolders.append((url.lastPathComponent, reason(error)))
                continue
            }
            var found = 0
            for name in FileNameOrder.sorted(names.filter { !$0.hasPrefix(".") }, by: { $0 }) {
                let file = url.appendingPathComponent(name)
                switch FileReader.kind(of: file.path) {
                case .folder, .missing: continue
                case .special: listing.skippedSpecial.append(name)
                case .regularFile:
                    if isImage(file, imageExtensions: imageExtensions) {
                        var origin = image.origin
                        origin?.arrival = .folder
                        listing.images.append(DroppedImage(url: file.absoluteString, origin: origin))
                        found += 1
                    } else {
                        listing.skipped.append(name)
                    }
                }
            }
            if found == 0 && listing.skipped.isEmpty && listing.skippedSpecial.isEmpty {
                listing.emptyFolders.append(url.lastPathComponent)
            }
        }
        return listing
    }

    /// An image by its first bytes, or by a name gdk-pixbuf reads (formats without a signature
    /// this app knows: XPM, TGA, PNM).
    private static func isImage(_ file: URL, imageExtensions: Set<String>) -> Bool {
        if imageExtensions.contains(file.pathExtension.lowercased()) { return true }
        guard let head = try? FileReader.head(file.path, count: 4096) else { return false }
        return ImageFormat.sniff(head) != nil
    }

    /// Why a folder could not be listed, as the system says it.
    private static func reason(_ error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError {
            return FileError(code: posix.code.rawValue).description
        }
        return error.localizedDescription
    }

    /// What the file chooser's "Images" filter shows and a folder's files are taken by: every
    /// format gdk-pixbuf reads here.
    @MainActor static let pixbufFormats = PixbufFormat.readable()

    @MainActor static var imageExtensions: Set<String> {
        Set(pixbufFormats.flatMap(\.extensions).map { $0.lowercased() })
    }
}
