import Foundation
import GalleryCore

/// `gallery-benchmark save [image count]`: one edit (a move, a note) put on the disk by the app's saver, the journal's
/// (`JournalSaver`, this computer's log appended) beside the whole state file written again (`StateStore.save`, what
/// each edit cost before the journal), in a folder
/// on the disk under the current directory: the bytes the process wrote (`wchar` of /proc/self/io, every write
/// call) and the time from `save` to `flush` returning with the edit flushed (after a quiet spell a save is written
/// at once, as `flush` writes it), median and range of 9 edits each.
func measureSave(count: Int) {
    let state = journalBenchmarkLibrary(count: count)
    let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        .appendingPathComponent(".save-benchmark-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    print("\(count) images in \(state.galleries.count) galleries")
    do {
        let library = root.appendingPathComponent("journal-library")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let saver = try JournalSaver(
            library: LibraryFolder.open(library), stateFolder: root.appendingPathComponent("journal-state"),
            carryingOver: state, onError: { print("error: \($0)") })
        // The first save writes the carry-over's snapshot: what every later launch reads.
        var current = state
        saver.save(current)
        _ = saver.flush()
        while !FileManager.default.fileExists(
            atPath: library.appendingPathComponent("journal/snapshot-\(saver.computer).json").path)
        {
            Thread.sleep(forTimeInterval: 0.05)
        }
        report(
            "journal",
            edits(of: &current) {
                saver.save($0)
                _ = saver.flush(timeout: 600)
            })
        let file = root.appendingPathComponent("state-library/state.json")
        let store = StateStore(fileURL: file)
        try store.save(state)
        current = state
        report(
            "state file",
            edits(of: &current) {
                do { try store.save($0) } catch { print("error: \(error)") }
            })
    } catch {
        print("error: \(error)")
    }
}

/// Nine edits (moves and notes in turn, each after a quiet spell): each one's bytes written and seconds to disk.
private func edits(of state: inout GalleryState, _ save: (GalleryState) -> Void) -> [(bytes: Int, seconds: Double)] {
    let clock = ContinuousClock()
    let last = state.galleries[0].images.count - 1
    return (0..<9).map { round in
        if round % 2 == 0 {
            state.galleries[0].images.insert(state.galleries[0].images.remove(at: 1), at: last)
        } else {
            state.galleries[0].images[round].note = "Edit \(round)"
        }
        Thread.sleep(forTimeInterval: 0.3)
        let before = writtenBytes()
        let time = clock.measure { save(state) }
        let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        return (writtenBytes() - before, seconds)
    }
}

private func report(_ name: String, _ samples: [(bytes: Int, seconds: Double)]) {
    let bytes = samples.map(\.bytes).sorted()
    let times = samples.map(\.seconds).sorted()
    print(
        String(
            format: "%@: an edit writes %.1f kB (%.1f–%.1f), on disk after %.1f ms (%.1f–%.1f), %d edits", name,
            Double(bytes[bytes.count / 2]) / 1e3, Double(bytes[0]) / 1e3, Double(bytes.last!) / 1e3,
            times[times.count / 2] * 1e3, times[0] * 1e3, times.last! * 1e3, samples.count))
}

/// The bytes this process has handed to `write` calls so far.
private func writtenBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("wchar:") })
    else { return 0 }
    return Int(line.split(separator: " ").last ?? "") ?? 0
}
