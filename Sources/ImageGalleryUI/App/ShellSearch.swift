import Foundation
import GalleryCore
import GalleryIO
import GtkKit

/// Answers GNOME Shell's overview (`ShellSearchProvider`) from the library's search index: the same
/// matching as the search bar, run on the scheduler, each result named by its image id.
@MainActor
final class ShellSearch {
    /// The overview shows a handful: more would only travel over the bus.
    nonisolated static let resultLimit = 100

    private let library: GalleryLibrary
    private let scheduler: JobScheduler
    private let bytesSource: ImageBytesSource
    private let librarySearch: LibrarySearch

    init(library: GalleryLibrary, search: LibrarySearch, scheduler: JobScheduler, bytesSource: ImageBytesSource) {
        self.library = library
        librarySearch = search
        self.scheduler = scheduler
        self.bytesSource = bytesSource
    }

    /// The ids of the images every term matches, in sidebar and gallery order, among `previous` when given.
    func search(
        _ terms: [String], within previous: [String]?, reply: @escaping @Sendable @MainActor ([String]) -> Void
    ) {
        librarySearch.withIndex { [weak self] index in self?.search(terms, within: previous, in: index, reply: reply) }
    }

    private func search(
        _ terms: [String], within previous: [String]?, in index: SearchIndex,
        reply: @escaping @Sendable @MainActor ([String]) -> Void
    ) {
        let corpus = index.corpus
        let query = SearchQuery(text: terms.joined(separator: " "))
        scheduler.run(
            .cpu, .visible,
            {
                let allowed = previous.map(Set.init)
                let ids = (corpus.search(query)?.ids ?? []).lazy.map(\.rawValue).filter {
                    allowed?.contains($0) ?? true
                }
                return Array(ids.prefix(Self.resultLimit))
            }, then: reply)
    }

    /// Each image's title (else alt text, else label), its gallery and note, and its thumbnail.
    func metas(_ ids: [String]) -> [ShellSearchProvider.ResultMeta] {
        ids.compactMap { id in
            guard let (galleryID, index) = library.location(of: ImageID(id)),
                let image = library.cells(of: galleryID)[index].image
            else { return nil }
            let name = [image.origin?.title, image.origin?.altText].compactMap(\.self).first { !$0.isEmpty }
            let description = [library.gallery(galleryID)?.name, image.note].compactMap(\.self)
            return ShellSearchProvider.ResultMeta(
                id: id, name: name ?? image.label, description: description.joined(separator: " — "),
                iconPath: iconPath(of: image))
        }
    }

    /// The freedesktop thumbnail of the image's local file, else that file itself.
    private func iconPath(of image: GalleryImage) -> String? {
        guard let original = bytesSource.localOriginal(for: image.url, sha256: image.original?.sha256) else {
            return nil
        }
        let files = [ThumbnailSize.large, .normal, .xLarge].map {
            bytesSource.thumbnails.file(for: original.uri, size: $0).path
        }
        return (files + [original.path]).first { FileManager.default.fileExists(atPath: $0) }
    }
}
