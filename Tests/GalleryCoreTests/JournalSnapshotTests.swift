import Foundation
import Testing

@testable import GalleryCore

private let hash = String(repeating: "cd", count: 32)

/// A library with every field an image, a gallery and the settings can hold, known or not.
private let libraryFile = """
    {"version": 1, "shownGalleryID": "g2", "sidebarVisible": false, "playAnimations": true, "future": [1, 2],
     "smartGalleries": [{"id": "s", "name": "Cats", "query": {"text": "cat"}}],
     "galleries": [
      {"id": "g1", "name": "Cats", "colour": "teal", "images": [
        {"id": "a", "url": "https://e.org/a.png", "aspectRatio": 1.5, "note": "For the kitchen wall",
         "tags": ["cats/grey", "sofa"], "animation": {"duration": 800, "frames": 8},
         "likeness": "0123456789abcdef.8a5c4a2b3d1c1e2f",
         "original": {"sha256": "\(hash)", "bytes": 48213, "width": 1200, "height": 800, "format": "png"},
         "origin": {"arrival": "drop", "added": "2026-11-26T22:40:00Z", "alt": "A grey cat", "link": "https://e.org/",
                    "page": "https://e.org/p", "title": "Grey", "description": "A cat", "pageTitle": "Cats"},
         "mergedCopies": [{"url": "https://e.org/a2.png", "origin": {"arrival": "paste"}}]},
        {"id": "b", "url": "file:///home/you/b.jpg", "aspectRatio": 1e400, "note": 7, "tags": ["a", 1],
         "original": {"sha256": "\(hash)", "bytes": 1, "width": 2, "height": 3, "blurhash": "x"},
         "origin": {"arrival": "paste", "rating": 5}, "animation": false, "future": {"deep": [[[]]]}},
        {"id": "c", "url": "data:image/png;base64,iVBORw0KGgo=", "aspectRatio": 0.75, "origin": [1]}]},
      {"id": "g2", "name": "Kitchen ideas", "images": [{"id": "e", "url": "https://e.org/e.png", "aspectRatio": 1}]},
      {"id": "g3", "name": "Dogs", "images": [{"id": "d", "url": "https://e.org/d.png", "aspectRatio": 2}]}]}
    """

@Suite("The journal's snapshot")
struct JournalSnapshotTests {
    /// A replica with registers of every kind: fields set after an arrival, a deletion, a gallery deleted and back,
    /// an image known only by a field, an image placed in a gallery not known yet, settings set and removed.
    private func richReplica() throws -> LibraryReplica {
        var replica = LibraryReplica(carryingOver: try StateStore.decode(Data(libraryFile.utf8)), by: "alpha")
        let changes: [(JournalChange, UInt64, String)] = [
            (.setImageField(ImageID("a"), name: "note", value: RawJSON(read: Array(#""Later""#.utf8))), 2, "bravo"),
            (.setImageField(ImageID("a"), name: "rating", value: RawJSON(read: Array("5".utf8))), 3, "alpha"),
            (.setImageField(ImageID("c"), name: "tags", value: nil), 3, "bravo"),
            (.placeImage(ImageID("d"), nil), 4, "alpha"),
            (.setGalleryDeleted("g3", true), 5, "alpha"),
            (.setGalleryDeleted("g3", false), 6, "charlie"),
            (.setGalleryField("g2", name: "colour", value: RawJSON(read: Array(#""red""#.utf8))), 6, "alpha"),
            (.setImageField(ImageID("ghost"), name: "note", value: RawJSON(read: Array(#""Who?""#.utf8))), 7, "bravo"),
            (
                .placeImage(ImageID("elsewhere"), JournalChange.ImagePlacement(gallery: "g9", key: "V")), 7,
                "charlie"
            ),
            (.setSetting(name: "sidebarVisible", value: nil), 8, "bravo"),
            (.setSetting(name: "later", value: RawJSON(read: Array(#"{"x":[true,null]}"#.utf8))), 8, "alpha"),
        ]
        for (change, counter, computer) in changes {
            replica.apply(JournalEntry(stamp: JournalStamp(counter: counter, computer: computer), changes: [change]))
        }
        return replica
    }

    @Test func aSnapshotRoundTripsEveryRegisterAndEveryField() throws {
        let replica = try richReplica()
        let snapshot = JournalSnapshot(replica: replica, covers: ["alpha": 120, "bravo": 0])
        let read = try #require(JournalSnapshot.decode(snapshot.encoded))
        #expect(read.replica == replica)
        #expect(read.covers == snapshot.covers)
        #expect(read.replica.clock == 8)
        #expect(read.replica.state == replica.state)
        // Written again, it reads the same.
        #expect(JournalSnapshot.decode(read.encoded)?.replica == replica)
    }

    @Test func eachGallerysImagesAreASectionOfTheirOwnAfterTheTable() throws {
        let galleries = (0..<4).map { gallery in
            Gallery(
                id: "gallery-\(gallery)", name: "G\(gallery)",
                images: (0..<50).map { GalleryImage(url: "https://e.org/\(gallery)/\($0).png", aspectRatio: 1) })
        }
        var replica = LibraryReplica(carryingOver: GalleryState(galleries: galleries), by: "alpha")
        replica.apply(
            JournalEntry(
                stamp: JournalStamp(counter: 2, computer: "alpha"),
                changes: [
                    .setImageField(ImageID("ghost"), name: "note", value: RawJSON(.string("Who?")))
                ]))
        let bytes = JournalSnapshot(replica: replica, covers: [:]).encoded
        let found = bytes.withUnsafeBufferPointer { JournalRecord.read($0, from: 0, limit: JournalSnapshot.limit) }
        #expect(found.stop == nil && found.payloads.count == 6)
        let contents = try #require(
            bytes.withUnsafeBufferPointer {
                JournalSnapshot.readContents(UnsafeBufferPointer(rebasing: $0[found.payloads[0]]))
            })
        #expect(contents.snapshot.replica.images.isEmpty)
        #expect(contents.sections.map(\.gallery) == galleries.map(\.id) + [nil])
        #expect(contents.sections.map(\.imageCount) == [50, 50, 50, 50, 1])
        // Each section read alone holds its gallery's images, and only them.
        for (index, payload) in found.payloads.dropFirst().enumerated() {
            var alone = contents
            let read = bytes.withUnsafeBufferPointer {
                JournalSnapshot.readSection(
                    UnsafeBufferPointer(rebasing: $0[payload]), contents.sections[index], of: &alone)
            }
            #expect(read && alone.snapshot.replica.images.count == contents.sections[index].imageCount)
            let shown = alone.snapshot.replica.state.galleries.filter { !$0.images.isEmpty }
            #expect(shown.map(\.id) == (index < 4 ? [galleries[index].id] : []))
            // A section read as another (its count of images not the table's) is refused.
            var other = contents
            other.sections[index].imageCount += 1
            let refused = bytes.withUnsafeBufferPointer {
                JournalSnapshot.readSection(
                    UnsafeBufferPointer(rebasing: $0[payload]), other.sections[index], of: &other)
            }
            #expect(!refused)
        }
        #expect(JournalSnapshot.decode(bytes)?.replica == replica)
    }

    @Test func aSnapshotOfTheFirstFormatIsStillRead() throws {
        let text =
            #"{"format":1,"clock":3,"computers":["alpha"],"covers":{"alpha":40},"#
            + #""settings":{"shownGalleryID":[[1,0],"g"]},"galleries":[{"id":"g","fields":{"name":[[1,0],"Cats"]},"#
            + #""key":[[1,0],"V"]}],"imageCount":1,"images":[{"base":[[1,0],{"id":"i","url":"https://e.org/i.png","#
            + #""aspectRatio":1.5}],"fields":{"note":[[3,0],"Grey"]},"place":[[1,0],"g","V"]}]}"#
        let read = try #require(JournalSnapshot.decode(JournalRecord.frame(Array(text.utf8))))
        #expect(read.covers == ["alpha": 40] && read.replica.clock == 3)
        let state = read.replica.state
        #expect(state.shownGalleryID == "g" && state.galleries.map(\.name) == ["Cats"])
        #expect(state.galleries[0].images.map(\.note) == ["Grey"])
        // Written again, in sections, it reads the same.
        #expect(JournalSnapshot.decode(read.encoded) == read)
    }

    @Test func aSnapshotOfAnotherShapeIsRefusedWhole() {
        let head = #"{"format":1,"computers":["alpha"],"#
        for text in [
            // Stamps that are not whole numbers, or name no listed computer.
            head + #""settings":{"later":[[1.5,0],1]}}"#, head + #""settings":{"later":[[-1,0],1]}}"#,
            head + #""settings":{"later":[[1,0.0],1]}}"#, head + #""settings":{"later":[[9007199254740993,0],1]}}"#,
            head + #""images":[{"id":"i","place":[[1,1],"g","V"]}]}"#,
            // A place of a gallery without a key, or of an empty gallery id.
            head + #""images":[{"id":"i","place":[[1,0],"g"]}]}"#,
            head + #""images":[{"id":"i","place":[[1,0],"","V"]}]}"#,
            head + #""images":[{"id":"i","place":[[1,0],"g","V"]},{"id":"j","place":[[1,0],"","V"]}]}"#,
            // A count of images the text cannot hold, or not a count.
            head + #""imageCount":1000000,"images":[]}"#, head + #""imageCount":"1","images":[]}"#,
        ] {
            #expect(JournalSnapshot.decode(JournalRecord.frame(Array(text.utf8))) == nil, "\(text)")
        }
        let accepted = head + #""imageCount":1,"images":[{"id":"i","place":[[1,0],"g","V"]}]}"#
        #expect(JournalSnapshot.decode(JournalRecord.frame(Array(accepted.utf8)))?.replica.images.count == 1)
    }

    @Test func aSectionClaimingMoreImagesThanItsBytesHoldIsRefusedWithoutRoomMadeForThem() throws {
        let replica = try richReplica()
        let bytes = JournalSnapshot(replica: replica, covers: [:]).encoded
        let found = bytes.withUnsafeBufferPointer { JournalRecord.read($0, from: 0) }
        let table = String(decoding: bytes[found.payloads[0]], as: UTF8.self)
        let claimed = table.replacingOccurrences(of: #""imageCount":1,"#, with: #""imageCount":1000000000,"#)
        #expect(claimed != table)
        let forged = JournalRecord.frame(Array(claimed.utf8)) + bytes[(found.payloads[0].upperBound + 1)...]
        #expect(JournalSnapshot.decode(Array(forged)) == nil)
        #expect(Array(claimed.utf8).withUnsafeBufferPointer { JournalSnapshot.readContents($0) } == nil)
    }

    @Test func aSnapshotLongerThanItsBoundIsRefusedBeforeItIsRead() {
        let payload = Array(#"{"format":1,"computers":[]}"#.utf8)
        var record = JournalRecord.frame(payload)
        #expect(JournalSnapshot.decode(record) != nil)
        // A header saying more than the bound, its bytes all there.
        let read = record.withUnsafeBufferPointer { JournalRecord.read($0, from: 0, limit: payload.count - 1) }
        #expect(read.payloads.isEmpty && read.stop == .damaged)
        record.replaceSubrange(0..<8, with: Array("40000001".utf8))
        #expect(JournalSnapshot.decode(record) == nil)
    }

    @Test func theStateFileWritesEachImageAsItsFieldsInNameOrder() throws {
        let state = try StateStore.decode(Data(libraryFile.utf8))
        for image in state.galleries.flatMap(\.images) {
            // A value kept as read is written as read, its white space aside: laid out again only when compact.
            for compact in image.unknownFields.isEmpty ? [true, false] : [true] {
                var writer = JSONWriter(compact: compact)
                StateFileFormat.write(image, to: &writer)
                let value = try JSONReader.read(writer.bytes) { (reader) throws(JSONReader.Failure) in
                    try reader.readValue()
                }
                // A tree's fields are written sorted by name: the same bytes, when the image's were.
                var sorted = JSONWriter(compact: compact)
                sorted.value(value)
                #expect(writer.bytes == sorted.bytes, "\(image.id)")
            }
        }
    }

    @Test func theChecksumIsZlibs() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        // Every length around the eight bytes taken a step, against the byte-at-a-time definition.
        let bytes = (0..<67).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        for length in 0...bytes.count {
            var value = UInt32.max
            for byte in bytes.prefix(length) {
                value ^= UInt32(byte)
                for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            }
            #expect(CRC32.checksum(Array(bytes.prefix(length))) == ~value, "\(length)")
        }
    }
}
