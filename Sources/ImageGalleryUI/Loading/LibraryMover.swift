import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// Move Library… (the main menu): asks for a folder, copies the kept originals there in the background with
/// progress and Cancel in the window it was started from, then, as a quit would, saves everything, copies
/// the originals kept meanwhile, writes the state there (merged with a library already in it), names the
/// folder in this computer's settings and starts the app again on it. The old folder's copies go at
/// that launch (`removeLeftovers`), never before the new folder is named, and only from the data folder:
/// a folder the user chose may be shared, and what is removed there is removed on every computer.
@MainActor
final class LibraryMover {
    private let scheduler: JobScheduler
    /// Saves what the library holds now; returns why it could not.
    private let saveEverything: () -> String?
    /// Starts the app again on the library's new folder.
    private let relaunch: () -> Void
    private var cancellation: CancellationToken?
    private weak var window: MainWindow?

    init(scheduler: JobScheduler, saveEverything: @escaping () -> String?, relaunch: @escaping () -> Void) {
        self.scheduler = scheduler
        self.saveEverything = saveEverything
        self.relaunch = relaunch
    }

    /// Removes what a move left in the folder the library came from (a move's last step is a relaunch; a
    /// kill before this leaves the copies to the next launch).
    static func removeLeftovers(_ location: LibraryLocation, scheduler: JobScheduler) {
        guard let movedFrom = location.movedFrom else { return }
        let folder = location.folder
        scheduler.submit(.io, .background) {
            if movedFrom == location.defaultFolder.standardizedFileURL {
                LibraryMove(from: movedFrom, to: folder).removeOld()
            }
            try? location.remember(folder)
        }
    }

    func start(in window: MainWindow) {
        guard cancellation == nil else {
            window.say(tr("The library is being moved already"))
            return
        }
        let chooser = FileChooser(
            title: tr("Move Library"), parent: window.window, purpose: .selectFolder, acceptLabel: tr("_Move"),
            folder: FileManager.default.homeDirectoryForCurrentUser.path)
        window.fileChooser = chooser
        chooser.run { [weak self, weak window] path in
            window?.fileChooser = nil
            guard let self, let window, let path else { return }
            move(to: URL(fileURLWithPath: path, isDirectory: true), in: window)
        }
    }

    private func move(to folder: URL, in window: MainWindow) {
        let move = LibraryMove(from: LibraryLocation().folder, to: folder)
        guard move.from != move.to else {
            return failed(.sameFolder, in: window)
        }
        let cancellation = CancellationToken()
        self.cancellation = cancellation
        self.window = window
        window.moveBanner.onCancel = { cancellation.cancel() }
        window.moveBanner.begin(tr("Moving the library to {folder}…", ["folder": move.to.path]), total: 0)
        scheduler.submit(.io, .visible) {
            let paths = move.originalsToCopy()
            MainContext.post { [weak self] in self?.window?.moveBanner.update(done: 0, total: paths.count) }
            let result: Result<Void, LibraryMove.Failure>
            do throws(LibraryMove.Failure) {
                try move.copyOriginals(paths, isCancelled: { cancellation.isCancelled }) { done in
                    MainContext.post { [weak self] in self?.window?.moveBanner.update(done: done, total: paths.count) }
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
        window?.moveBanner.end()
        if case .failure(let failure) = result {
            return failed(failure, in: window)
        }
        if let reason = saveEverything() {
            return failed(reason, in: window)
        }
        do throws(LibraryMove.Failure) {
            try move.copyOriginals(move.originalsToCopy())
            try move.moveState()
            do throws(FileError) {
                try LibraryLocation().remember(move.to, movedFrom: move.from)
            } catch {
                throw .file(error)
            }
        } catch {
            return failed(error, in: window)
        }
        relaunch()
    }

    private func failed(_ failure: LibraryMove.Failure, in window: MainWindow?) {
        guard failure != .cancelled else {
            window?.say(tr("Moving the library was cancelled; it stays where it was"), seconds: nil)
            return
        }
        failed(failure.description, in: window)
    }

    private func failed(_ reason: String, in window: MainWindow?) {
        window?.say(
            tr("The library could not be moved: {reason}. It stays where it was.", ["reason": reason]), seconds: nil)
    }
}
