import Foundation
import GLibKit
import GalleryCore
import GalleryIO

/// Check Library (the main menu): checks every kept original in the background (LibraryCheck), one check at a
/// time for the whole app. It tells whoever started it how far it got and what it found; the window shows them.
@MainActor
final class LibraryChecker {
    /// A check under way.
    struct Run {
        /// How many kept originals it checks.
        let total: Int
        /// Stops it; the completion still hears what was checked until then.
        let cancel: @MainActor () -> Void
    }

    private let library: GalleryLibrary
    private let source: ImageBytesSource
    private var check: LibraryCheck?

    init(library: GalleryLibrary, source: ImageBytesSource) {
        self.library = library
        self.source = source
    }

    /// Starts a check: `progress` hears how many originals are checked of how many, `completion` what the check
    /// found, both later on the main loop. Nil when a check is running already.
    func start(
        progress: @escaping @MainActor (_ done: Int, _ total: Int) -> Void,
        completion: @escaping @MainActor (LibraryCheck.Report) -> Void
    ) -> Run? {
        guard check == nil else { return nil }
        let items = LibraryCheck.items(of: library.state.galleries.flatMap(\.images))
        let check = LibraryCheck(
            items, source: source,
            progress: { done, total in MainContext.post { progress(done, total) } },
            completion: { report in
                MainContext.post { [weak self] in
                    self?.check = nil
                    completion(report)
                }
            })
        self.check = check
        check.start()
        return Run(total: items.count, cancel: { check.cancel() })
    }
}
