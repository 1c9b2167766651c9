import Foundation
import GalleryCore

/// `gallery-benchmark journal [image count]`: what one edit costs the library's journal (finding its changes and
/// encoding its record) against today's save (the whole state file encoded), over a library of that many images in
/// 200 galleries with notes, tags and origins; then the journal's whole-library work (carry-over, the library made
/// from the replica, a snapshot written and read).
func measureJournal(count: Int) {
    let state = journalBenchmarkLibrary(count: count)
    let galleries = state.galleries
    let clock = ContinuousClock()
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
    print("\(count) images in \(galleries.count) galleries")
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
    let reading = (0..<3).map { _ in clock.measure { precondition(JournalSnapshot.decode(snapshot) != nil) } }
    print(journalSummary("journal: a snapshot read", reading))
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
        format: "%@: median %.2f ms, range %.2f–%.2f ms (%d runs)", name, milliseconds(sorted[sorted.count / 2]),
        milliseconds(sorted[0]), milliseconds(sorted.last!), sorted.count)
}
