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

    /// The ids of the images every term matches, in sidebar and gallery order, among `previous` when given. The search
    /// stops at the first `resultLimit`: `previous` (the overview's results for fewer letters) are the first of theirs,
    /// so those of them the terms match are among these.
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
                let ids = (corpus.search(query, limit: Self.resultLimit)?.ids ?? []).lazy.map(\.rawValue).filter {
                    allowed?.contains($0) ?? true
                }
                return Array(ids.prefix(Self.resultLimit))
            }, then: reply)
    }

    /// What the overview's text may hold: one line each, cut with "…" past these many characters.
    nonisolated static let nameCharacters = 100
    nonisolated static let descriptionCharacters = 200

    /// Each image's title (else alt text, else label), its gallery and note, each cut to one short line, and its
    /// icon: a thumbnail this app wrote, else the app's icon. Never the image's own file, nor a file a synced
    /// library names: the shell would decode it itself, without the app's limits. Files are looked at off the
    /// GTK thread.
    func metas(_ ids: [String], reply: @escaping @Sendable @MainActor ([ShellSearchProvider.ResultMeta]) -> Void) {
        let results = ids.compactMap { id -> (meta: ShellSearchProvider.ResultMeta, url: String, sha256: String?)? in
            guard let (galleryID, index) = library.location(of: ImageID(id)),
                let image = library.cells(of: galleryID)[index].image
            else { return nil }
            let name = [image.origin?.title, image.origin?.altText].compactMap(\.self).first { !$0.isEmpty }
            let note = image.note.map { OneLine.of($0, maximumCharacters: Self.descriptionCharacters) }
            let description = [library.gallery(galleryID)?.name, note].compactMap(\.self).joined(separator: " — ")
            let meta = ShellSearchProvider.ResultMeta(
                id: id, name: OneLine.of(name ?? image.label, maximumCharacters: Self.nameCharacters),
                description: OneLine.of(description, maximumCharacters: Self.descriptionCharacters),
                icon: .themed(name: ImageGalleryApplication.id))
            return (meta, image.url, image.original?.sha256)
        }
        let bytesSource = bytesSource
        scheduler.run(
            .io, .visible,
            {
                results.map { result in
                    var meta = result.meta
                    if let path = Self.thumbnail(of: result.url, sha256: result.sha256, in: bytesSource) {
                        meta.icon = .file(path: path)
                    }
                    return meta
                }
            }, then: reply)
    }

    /// A current thumbnail of the image's local file that this app wrote, the largest the overview would use.
    private nonisolated static func thumbnail(of url: String, sha256: String?, in bytesSource: ImageBytesSource)
        -> String?
    {
        guard let original = bytesSource.localOriginal(for: url, sha256: sha256) else { return nil }
        return bytesSource.thumbnails.ownFile(of: original, sizes: [.large, .normal, .xLarge])
    }
}
