import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// Move Library… (the main menu): copies the kept originals into the folder the user chose in the background,
/// telling how far it got, then, as a quit would, saves everything, copies the originals kept meanwhile, writes
/// the state there (merged with a library already in it), names the folder in this computer's settings and
/// starts the app again on it. The old folder's copies go at that launch (`removeLeftovers`), never before the
/// new folder is named, and only from the data folder: a folder the user chose may be shared, and what is
/// removed there is removed on every computer. It reports through a callback the window turns into its banner.
@MainActor
final class LibraryMover {
    /// How a move goes, told on the main loop.
    enum Report {
        /// Copying the originals into `folder` began; how many there are follows.
        case began(folder: URL)
        /// `done` of the `total` originals are copied.
        case progress(done: Int, total: Int)
        /// The copying is over, whatever came of it.
        case copied
        /// The move stopped and the library stays where it was: why, in the user's words.
        case stopped(String)
    }

    private var paths: LibraryPaths
    private let scheduler: JobScheduler
    /// Saves what the library holds now; returns why it could not.
    private let saveEverything: () -> String?
    /// Starts the app again on the library's new folder.
    private let relaunch: () -> Void
    private var cancellation: CancellationToken?
    private var report: (Report) -> Void = { _ in }

    init(
        paths: LibraryPaths, scheduler: JobScheduler, saveEverything: @escaping () -> String?,
        relaunch: @escaping () -> Void
    ) {
        self.paths = paths
        self.scheduler = scheduler
        self.saveEverything = saveEverything
        self.relaunch = relaunch
    }

    /// Whether a move is copying now.
    var isMoving: Bool { cancellation != nil }

    /// Stops a move between two originals; the library stays where it was.
    func cancel() { cancellation?.cancel() }

    /// Removes what a move left in the folder the library came from (a move's last step is a relaunch; a
    /// kill before this leaves the copies to the next launch).
    static func removeLeftovers(_ paths: LibraryPaths, scheduler: JobScheduler) {
        guard let movedFrom = paths.location.movedFrom else { return }
        let folder = paths.libraryFolder
        let dataFolder = paths.dataFolder
        scheduler.submit(.io, .background) {
            if movedFrom == dataFolder.standardizedFileURL {
                LibraryMove(from: movedFrom, to: folder, dataFolder: dataFolder).removeOld()
            }
            var paths = paths
            try? paths.remember(folder)
        }
    }

    /// Moves the library into `folder`, telling `report` how it goes; a move that gets there ends in a relaunch.
    func move(to folder: URL, report: @escaping (Report) -> Void) {
        guard cancellation == nil else { return }
        let move = LibraryMove(from: paths.libraryFolder, to: folder, dataFolder: paths.dataFolder)
        guard move.from != move.to else {
            return report(.stopped(Self.message(for: .sameFolder)))
        }
        let cancellation = CancellationToken()
        self.cancellation = cancellation
        self.report = report
        report(.began(folder: move.to))
        scheduler.submit(.io, .visible) {
            let paths = move.originalsToCopy()
            MainContext.post { [weak self] in self?.report(.progress(done: 0, total: paths.count)) }
            let result: Result<Void, LibraryMove.Failure>
            do throws(LibraryMove.Failure) {
                try move.copyOriginals(paths, isCancelled: { cancellation.isCancelled }) { done in
                    MainContext.post { [weak self] in self?.report(.progress(done: done, total: paths.count)) }
                }
                result = .success(())
            } catch {
                result = .failure(error)
            }
            MainContext.post { [weak self] in self?.copied(move, result) }
        }
    }

    /// The originals are there: the last step, which nothing edits meanwhile (it runs on this thread, as a
    /// quit's last save does).
    private func copied(_ move: LibraryMove, _ result: Result<Void, LibraryMove.Failure>) {
        cancellation = nil
        let report = report
        self.report = { _ in }
        report(.copied)
        if case .failure(let failure) = result {
            return report(.stopped(Self.message(for: failure)))
        }
        if let reason = saveEverything() {
            return report(.stopped(Self.message(forReason: reason)))
        }
        do throws(LibraryMove.Failure) {
            try move.copyOriginals(move.originalsToCopy())
            try move.moveState(stateFolder: paths.computerState)
            do throws(FileError) {
                try paths.remember(move.to, movedFrom: move.from)
            } catch {
                throw .file(error)
            }
        } catch {
            return report(.stopped(Self.message(for: error)))
        }
        relaunch()
    }

    private static func message(for failure: LibraryMove.Failure) -> String {
        failure == .cancelled
            ? tr("Moving the library was cancelled; it stays where it was") : message(forReason: failure.description)
    }

    private static func message(forReason reason: String) -> String {
        tr("The library could not be moved: {reason}. It stays where it was.", ["reason": reason])
    }
}
