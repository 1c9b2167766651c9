import Foundation
import GalleryCore
import GtkKit

/// Move Library… in this window: the folder chooser, then the move's banner with Cancel, and how it ended.
extension MainWindow {
    func moveLibrary(with mover: LibraryMover) {
        guard !mover.isMoving else {
            say(tr("The library is being moved already"))
            return
        }
        let chooser = FileChooser(
            title: tr("Move Library"), parent: window, purpose: .selectFolder, acceptLabel: tr("_Move"),
            folder: FileManager.default.homeDirectoryForCurrentUser.path)
        fileChooser = chooser
        chooser.run { [weak self, weak mover] path in
            self?.fileChooser = nil
            guard let self, let mover, let path else { return }
            mover.move(to: URL(fileURLWithPath: path, isDirectory: true)) { [weak self, weak mover] report in
                self?.show(report, cancel: { mover?.cancel() })
            }
        }
    }

    private func show(_ report: LibraryMover.Report, cancel: @escaping () -> Void) {
        switch report {
        case .began(let folder):
            moveBanner.onCancel = cancel
            moveBanner.begin(tr("Moving the library to {folder}…", ["folder": folder.path]), total: 0)
        case .progress(let done, let total): moveBanner.update(done: done, total: total)
        case .copied: moveBanner.end()
        case .stopped(let message): say(message, seconds: nil)
        }
    }
}
