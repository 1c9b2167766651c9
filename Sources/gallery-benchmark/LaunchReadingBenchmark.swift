import CShim
import Foundation
import GalleryCore

/// `gallery-benchmark launch-reading <home> [runs]`: the processor time of what a launch reads before its first
/// screen, as the app's launch job reads it (the folder's `state.json` looked at, the journal opened with the app's
/// bound, the library prepared), in the library `home` holds (`$HOME` of a benchmark's run). Each run opens it again;
/// nothing is written unless a crash left a record cut, so the same home gives the same figures. Beside it, the same
/// home's `state.json` read and prepared, as a launch read the library before the journal; then the heap the journal and
/// the library it makes hold.
func measureLaunchReading(home: String, runs: Int) {
    let paths = LibraryPaths(XDGDirectories(environment: ["HOME": home]))
    let clock = ThreadProcessorClock()
    var samples: [Duration] = []
    for _ in 0..<runs {
        var images = 0
        samples.append(clock.measure { images = withLaunchReading(paths) { _, _ in } })
        print("read \(images) images before the first screen")
    }
    print(journalSummary("launch reading", samples))
    guard let bytes = try? Data(contentsOf: paths.stateFile) else { return }
    let fileSamples = (0..<runs).map { _ in
        clock.measure {
            guard let state = try? StateStore.decode(bytes) else { return }
            withExtendedLifetime(GalleryLibrary.Prepared(state)) {}
        }
    }
    print(journalSummary("its state.json read, as before the journal", fileSamples))
    let before = cshim_allocated_bytes()
    var held = 0
    let count = withLaunchReading(paths) { saver, prepared in
        held = Int(cshim_allocated_bytes()) - Int(before)
        withExtendedLifetime((saver, prepared)) {}
    }
    print("the journal and the library read hold \(held / max(count, 1)) bytes an image (malloc)")
}

/// Reads the library as the app's launch job does and hands `body` what it made; returns the images read.
private func withLaunchReading(
    _ paths: LibraryPaths, _ body: (JournalSaver, GalleryLibrary.Prepared) -> Void
) -> Int {
    let look = StateFileIntake(paths).look()
    guard let library = try? LibraryFolder.open(paths.libraryFolder, creating: false) else { return 0 }
    let saver = try! JournalSaver(
        library: library, stateFolder: paths.computerState, carryingOver: nil,
        restLaterBeyond: look.finding == .changed ? nil : 4 << 20, onError: { _ in })
    body(saver, GalleryLibrary.Prepared(saver.library, unreadCounts: saver.isWhole ? [:] : saver.unreadCounts))
    return saver.library.galleries.reduce(0) { $0 + $1.images.count }
}
