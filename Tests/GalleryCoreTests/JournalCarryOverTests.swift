import Foundation
import Testing

@testable import GalleryCore

private let hash = String(repeating: "ab", count: 32)

/// A state file of an older version with everything it can hold: settings, smart galleries, kept originals,
/// origins, notes, tags, animations, merged copies, fields of another shape and fields no version knows.
private let oldFile = """
    {"version": 1, "revision": "r1", "ancestors": ["r0"], "shownGalleryID": "g2", "sidebarVisible": false,
     "playAnimations": true, "future": {"n": 1e400, "list": [ -0 ,  12345678901234567890 ]},
     "smartGalleries": [{"id": "s", "name": "Cats", "query": {"text": "cat", "hasNote": true}}],
     "galleries": [
      {"id": "g1", "name": "Cats", "colour": "teal", "images": [
        {"id": "a", "url": "https://e.org/a.png", "aspectRatio": 1.5, "note": "For the kitchen wall",
         "tags": ["cats/grey", "sofa"], "animation": {"duration": 800, "frames": 8},
         "original": {"sha256": "\(hash)", "bytes": 48213, "width": 1200, "height": 800, "format": "png",
                      "blurhash": "x"},
         "origin": {"arrival": "drop", "added": "2026-11-26T22:40:00Z", "alt": "A grey cat", "rating": 5},
         "mergedCopies": [{"url": "https://e.org/a2.png", "origin": {"arrival": "paste"}}]},
        {"id": "b", "url": "file:///home/you/b.jpg", "aspectRatio": 1e400, "note": 7, "tags": ["a", 1],
         "origin": [1], "animation": false, "future": {"deep": [[[]]]}},
        {"id": "c", "url": "data:image/png;base64,iVBORw0KGgo=", "aspectRatio": 0.75}]},
      {"id": "g2", "name": "Kitchen ideas", "images": []},
      {"id": "g3", "name": "Cats", "images": [{"id": "d", "url": "https://e.org/d.png", "aspectRatio": 2}]}]}
    """

/// What a state means: its state file read back (fields known and kept as read alike, white space aside).
private func meaning(_ state: GalleryState) throws -> GalleryState {
    try StateStore.decode(StateFileFormat.encode(state))
}

@Suite("An older library carried over into the journal")
struct JournalCarryOverTests {
    @Test func theCarriedOverLibraryIsTheOldOneFieldForField() throws {
        let old = try StateStore.decode(Data(oldFile.utf8))
        let replica = LibraryReplica(carryingOver: old, by: "alpha")
        #expect(try meaning(replica.state) == meaning(old))
        // Through a snapshot, and with two computers carrying the same file over.
        let read = try #require(JournalSnapshot.decode(JournalSnapshot(replica: replica, covers: [:]).encoded))
        #expect(read.replica == replica)
        #expect(try meaning(read.replica.state) == meaning(old))
        var both = replica
        both.merge(LibraryReplica(carryingOver: old, by: "bravo"))
        #expect(try meaning(both.state) == meaning(old))
    }

    @Test func editsOfTheCarriedOverLibraryKeepWhatThisVersionDoesNotKnow() throws {
        let old = try StateStore.decode(Data(oldFile.utf8))
        var replica = LibraryReplica(carryingOver: old, by: "alpha")
        var new = old
        new.galleries[0].images[1].tags = ["cats"]
        new.galleries[0].images.swapAt(0, 2)
        new.galleries[2].name = "Dogs"
        let changes = replica.changes(from: old, to: new)
        // The swap moves two images; the third keeps its key.
        #expect(changes.count == 4)
        var log: [UInt8] = []
        for entry in replica.commit(changes, by: "alpha") { log += JournalLog.record(entry) }
        #expect(try meaning(replica.state) == meaning(new))
        var other = LibraryReplica(carryingOver: old, by: "alpha")
        for entry in JournalLog.read(log).entries { other.apply(entry) }
        #expect(try meaning(other.state) == meaning(new))
        #expect(
            other.state.galleries[0].images[1].unknownFields["future"]
                == old.galleries[0].images[1].unknownFields["future"])
    }

    @Test func aSnapshotCutOrDamagedIsNotRead() throws {
        let old = try StateStore.decode(Data(oldFile.utf8))
        let bytes = JournalSnapshot(replica: LibraryReplica(carryingOver: old, by: "alpha"), covers: ["alpha": 12])
            .encoded
        #expect(JournalSnapshot.decode(bytes)?.covers == ["alpha": 12])
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(JournalSnapshot.decode(Array(bytes.prefix(length))) == nil)
        }
        var damaged = bytes
        damaged[bytes.count / 2] ^= 0x04
        #expect(JournalSnapshot.decode(damaged) == nil)
        // A snapshot whose stamps name a computer it does not list, or whose values cannot be their fields.
        for text in [
            #"{"format":1,"computers":["alpha"],"settings":{"sidebarVisible":[[1,1],true]}}"#,
            #"{"format":1,"computers":["alpha"],"settings":{"galleries":[[1,0],[]]}}"#,
            #"{"format":1,"computers":["alpha"],"images":[{"id":"i","place":[[1,0],"g","V0"]}]}"#,
            #"{"format":3,"computers":[]}"#,
            #"{"format":2,"computers":["alpha"],"images":[]}"#,
            #"{"format":2,"computers":[],"sections":[{"imageCount":1,"length":40}]}"#,
            #"{"settings":{},"format":1,"computers":["alpha"]}"#,
        ] {
            #expect(JournalSnapshot.decode(JournalRecord.frame(Array(text.utf8))) == nil, "\(text)")
        }
    }
}
