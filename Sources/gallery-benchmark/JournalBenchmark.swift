import CShim
import Foundation
import GalleryCore

/// `gallery-benchmark journal [image count | state file]`: what one edit costs the library's journal (finding its
/// changes and encoding its record) against today's save (the whole state file encoded), over a library of that many
/// images in 200 galleries with notes, tags and origins (or the library a state file holds, as
/// `Tests/benchmarks/generated_library.py` writes one); then the journal's whole-library work (carry-over, the
/// library made from the replica, a snapshot written and read) beside today's state file written and read, and the
/// memory each holds.
func measureJournal(argument: String?) {
    if let argument, Int(argument) == nil {
        let data = try! Data(contentsOf: URL(fileURLWithPath: argument))
        measureJournal(state: try! StateStore.decode(data))
    } else {
        measureJournal(state: journalBenchmarkLibrary(count: argument.flatMap(Int.init) ?? 50_000))
    }
}

private func measureJournal(state: GalleryState) {
    let count = state.galleries.reduce(0) { $0 + $1.images.count }
    // Processor time, not wall time: the machine these run on is shared.
    let clock = ThreadProcessorClock()
    var replica = LibraryReplica()
    let carryOver = clock.measure { replica = LibraryReplica(carryingOver: state, by: "benchmark") }
    let last = state.galleries[0].images.count - 1
    let edits: [(String, (inout GalleryState) -> Void)] = [
        (
            "a move across the largest gallery",
            { $0.galleries[0].images.insert($0.galleries[0].images.remove(at: 1), at: last) }
        ),
        (
            "a move to another gallery",
            { $0.galleries[1].images.insert($0.galleries[0].images.remove(at: last / 2), at: 0) }
        ),
        ("a tag", { $0.galleries[0].images[last / 2].tags.append("cats/grey") }),
        ("a note", { $0.galleries[0].images[last / 3].note = "For the kitchen wall" }),
    ]
    print("\(count) images in \(state.galleries.count) galleries")
    for (name, edit) in edits {
        var new = state
        edit(&new)
        var bytes = 0
        let samples = (0..<9).map { _ in
            clock.measure {
                let changes = replica.changes(from: state, to: new)
                let entry = JournalEntry(stamp: JournalStamp(counter: 2, computer: "benchmark"), changes: changes)
                bytes = JournalLog.record(entry).count
            }
        }
        print(journalSummary("journal: \(name), changes found and encoded", samples) + ", \(bytes) bytes")
    }
    var stateBytes = 0
    let whole = (0..<3).map { _ in clock.measure { stateBytes = StateStore.encode(state).count } }
    print(journalSummary("today: the whole state file encoded", whole) + ", \(stateBytes) bytes")
    let stateData = StateStore.encode(state)
    var stateRead = GalleryState(galleries: [])
    let stateMemory = heapBytes {
        let reads = (0..<3).map { _ in clock.measure { stateRead = try! StateStore.decode(stateData) } }
        print(journalSummary("today: the whole state file read", reads))
    }
    print("today: the state read holds \(stateMemory / count) bytes an image (malloc)")
    precondition(stateRead.galleries.count == state.galleries.count)
    print(journalSummary("journal: carry-over of the state", [carryOver]))
    var made = GalleryState(galleries: [])
    print(
        journalSummary(
            "journal: the library made from the replica", (0..<3).map { _ in clock.measure { made = replica.state } }))
    precondition(made.galleries.count == state.galleries.count)
    var snapshot: [UInt8] = []
    let writing = (0..<3).map { _ in
        clock.measure { snapshot = JournalSnapshot(replica: replica, covers: [:]).encoded }
    }
    print(journalSummary("journal: a snapshot written", writing) + ", \(snapshot.count) bytes")
    var read: JournalSnapshot?
    let snapshotMemory = heapBytes {
        let reading = (0..<3).map { _ in clock.measure { read = JournalSnapshot.decode(snapshot) } }
        print(journalSummary("journal: a snapshot read", reading))
    }
    print("journal: the replica read holds \(snapshotMemory / count) bytes an image (malloc)")
    precondition(read?.replica == replica)
    measureMeasuredLater(replica, state)
    measureLaunchReading(snapshot: snapshot, shown: state.galleries[0].id)
}

/// The heap a replica read from a snapshot and the library made from it hold when every image got its likeness after
/// it arrived, as the app's likeness pass records one: each image a field register, its made image a copy of its
/// arrival's with the likeness set.
private func measureMeasuredLater(_ replica: LibraryReplica, _ state: GalleryState) {
    let count = state.galleries.reduce(0) { $0 + $1.images.count }
    var measured = replica
    let likeness = RawJSON(.string("0123456789abcdef.8a5c4a2b3d1c1e2f"))
    measured.apply(
        JournalEntry(
            stamp: JournalStamp(counter: replica.clock + 1, computer: "benchmark"),
            changes: state.galleries.flatMap(\.images).map { .setImageField($0.id, name: "likeness", value: likeness) })
    )
    let snapshot = JournalSnapshot(replica: measured, covers: [:]).encoded
    var held: (LibraryReplica, GalleryState)?
    let bytes = heapBytes {
        let read = JournalSnapshot.decode(snapshot)!.replica
        held = (read, read.state)
    }
    precondition(held?.1.galleries.count == state.galleries.count)
    print(
        "journal: a likeness set after each arrival: the replica read and its library hold \(bytes / count) bytes an image (malloc)"
    )
}

/// A launch's reading of the journal (`JournalSaver` opened on a folder holding `snapshot`), whole and shown gallery
/// first, to the library its first screen shows: processor time, and the heap it holds then.
private func measureLaunchReading(snapshot: [UInt8], shown: String) {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("journal-benchmark-\(getpid())")
    defer { try? FileManager.default.removeItem(at: root) }
    let journal = root.appendingPathComponent("library/journal")
    try! FileManager.default.createDirectory(at: journal, withIntermediateDirectories: true)
    try! Data(snapshot).write(to: journal.appendingPathComponent("snapshot-benchmark.json"))
    let library = try! LibraryFolder.open(root.appendingPathComponent("library"))
    let clock = ThreadProcessorClock()
    for (name, restLater) in [("whole", nil), ("shown gallery first", 0 as Int?)] {
        var shownImages = 0
        var held = 0
        let samples = (0..<3).map { _ in
            let before = cshim_allocated_bytes()
            var saver: JournalSaver?
            let time = clock.measure {
                saver = try! JournalSaver(
                    library: library, stateFolder: root.appendingPathComponent("state"), restLaterBeyond: restLater,
                    onError: { _ in })
            }
            held = Int(cshim_allocated_bytes()) - Int(before)
            shownImages = saver!.loaded.galleries.first { $0.id == shown }?.images.count ?? 0
            return time
        }
        print(
            journalSummary("journal: a launch's reading, \(name)", samples)
                + ", shown gallery \(shownImages) images, \(held / 1_000_000) MB of heap then")
    }
}

/// The heap bytes in use after `body` more than before it, as malloc counts them.
private func heapBytes(_ body: () -> Void) -> Int {
    let before = cshim_allocated_bytes()
    body()
    return Int(cshim_allocated_bytes()) - Int(before)
}

/// `count` images in 200 galleries with notes, tags and origins: the library the journal's benchmarks edit.
func journalBenchmarkLibrary(count: Int) -> GalleryState {
    let perGallery = max(1, count / 200)
    let galleries = stride(from: 0, to: count, by: perGallery).map { first in
        Gallery(
            name: "Gallery \(first / perGallery)",
            images: (first..<min(count, first + perGallery)).map { index in
                var image = GalleryImage(
                    url: "https://cdn\(index % 97).example.org/photos/\(index).jpg", aspectRatio: 1.5)
                image.note = index % 3 == 0 ? "note \(index)" : nil
                image.tags = ["colour/red", "set\(index % 50)"]
                image.origin = ImageOrigin(arrival: .drop, added: "2026-11-26T22:40:00Z", altText: "photo \(index)")
                return image
            })
    }
    return GalleryState(galleries: galleries)
}

/// "name: median …, range …–…" in milliseconds.
func journalSummary(_ name: String, _ samples: [Duration]) -> String {
    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }
    let sorted = samples.sorted()
    return String(
        format: "%@: median %.2f ms, range %.2f–%.2f ms of processor time (%d runs)", name,
        milliseconds(sorted[sorted.count / 2]),
        milliseconds(sorted[0]), milliseconds(sorted.last!), sorted.count)
}
