import Foundation
import Testing

@testable import GalleryCore

private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "state-bounds-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private func decoded(_ text: String) throws -> StateFileFormat.Decoded {
    try Array(text.utf8).withUnsafeBufferPointer { buffer throws(StateFileFormat.Invalid) in
        try StateFileFormat.decode(buffer)
    }
}

private func text(_ state: GalleryState) -> String { String(decoding: StateStore.encode(state), as: UTF8.self) }

private let oneImage =
    #"{"id": "g", "name": "G", "images": [{"id": "mine", "url": "https://e.org/mine.png", "aspectRatio": 1.5}]}"#

/// What reading a state file may cost: unknown fields as text within a budget, a size past which the file is
/// not read, nesting that costs no stack.
@Suite struct StateFileBoundsTests {
    @Test func unknownFieldsAreKeptAsTheTextTheyWereReadIn() throws {
        let odd = #"{ "b" :[1 , 2.50,"\u0041\n" ],"a":{} }"#
        let state = try decoded(#"{"version": 1, "future": \#(odd), "galleries": [\#(oneImage)]}"#).state
        let written = text(state)
        #expect(written.contains(#""future" : \#(odd)"#))
        #expect(try decoded(written).state == state)
        #expect(StateStore.encode(try decoded(written).state) == Data(written.utf8))
    }

    @Test func rawTextsAreEqualWhateverTheWhiteSpaceBetweenTheirTokens() throws {
        let read = try #require(
            try decoded(#"{"version":1,"galleries":[],"x":[ "a b" ,{ "c" : null } ]}"#).state.unknownFields["x"])
        let made = RawJSON(.array([.string("a b"), .object(["c": .null])]))
        #expect(read == made && read.hashValue == made.hashValue)
        #expect(read != RawJSON(.array([.string("ab"), .object(["c": .null])])))
        #expect(RawJSON(.string("a b")) != RawJSON(.string("a  b")))
    }

    @Test func unknownFieldsPastTheBudgetAreDroppedAndCounted() throws {
        let huge = String(repeating: "x", count: StateFileFormat.unknownTextLimit)
        let decoded = try decoded(
            #"{"version": 1, "small": 1, "huge": "\#(huge)", "galleries": [\#(oneImage)], "later": [true]}"#)
        #expect(decoded.droppedFields == 1)
        #expect(decoded.state.unknownFields.keys.sorted() == ["later", "small"])
        #expect(decoded.state.galleries[0].images.map(\.id) == [ImageID("mine")])
    }

    @Test func anImageFieldPastTheBudgetIsDroppedAndTheLibraryLoads() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("state.json")
        let huge = "[" + Array(repeating: "0", count: StateFileFormat.unknownTextLimit / 2).joined(separator: ",") + "]"
        try Data(
            #"{"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "mine", "url": "u", "aspectRatio": 1, "original": {"sha256": "\#(String(repeating: "ab", count: 32))", "bytes": 3, "blob": \#(huge)}}]}]}"#
                .utf8
        ).write(to: file)
        guard case .loadedWithoutUnknownFields(let state, let dropped) = StateStore(fileURL: file).load() else {
            Issue.record("the file did not load without its unknown field")
            return
        }
        #expect(dropped == 1)
        #expect(state.galleries[0].images[0].original?.byteCount == 3)
        #expect(state.galleries[0].images[0].original?.unknownFields.isEmpty == true)
    }

    @Test func aFileLargerThanTheLimitIsKeptAsideUnread() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("state.json")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        // Sparse: the size says it all, and reading it would take the whole of it into memory.
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(StateFileBytes.limit) + 1)
        try handle.close()
        let store = StateStore(fileURL: file)
        #expect(store.read() == .tooLarge)
        guard case .unreadable(let reason, let keptAt) = store.load(now: Date(timeIntervalSince1970: 7)) else {
            Issue.record("an oversized file was not kept aside")
            return
        }
        #expect(reason.contains("larger than"))
        #expect(keptAt.lastPathComponent == "state.json.corrupt-7")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func readingStopsOneBytePastTheLimitWhateverTheFileSays() throws {
        // A device whose size says nothing of what it gives: the read stops, it does not take it all.
        #expect(throws: StateFileBytes.Failure.tooLarge) { try StateFileBytes.read("/dev/zero", limit: 1 << 20) }
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("state.json")
        try Data(repeating: 0x20, count: 100).write(to: file)
        #expect(try StateFileBytes.read(file.path, limit: 100).count == 100)
        #expect(throws: StateFileBytes.Failure.tooLarge) { try StateFileBytes.read(file.path, limit: 99) }
    }

    @Test func aMillionNestedArraysAreRefusedWithoutExhaustingTheStack() {
        let deep = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        let image = #"{"id": "i", "url": "u", "aspectRatio": 1, "FIELD": \#(deep)}"#
        for field in ["future", "tags", "original", "origin", "note"] {
            let file = #"{"version": 1, "galleries": [{"id": "g", "name": "G", "images": [\#(image)]}]}"#
            #expect(throws: StateFileFormat.Invalid.self) {
                try decoded(file.replacingOccurrences(of: "FIELD", with: field))
            }
        }
        #expect(throws: StateFileFormat.Invalid.self) {
            try decoded(#"{"version": 1, "galleries": [], "smartGalleries": \#(deep)}"#)
        }
    }

    @Test func skippingAValueChecksItAsReadingItDoes() throws {
        let texts = [
            #"{"a":[1,{"b":"c\"d"},[]],"e":{}}"#, "[]", "{}", #""\ud83d\ude00""#, "-0.5e+3", "true", "null",
            #"[1,]"#, #"{"a"}"#, #"{"a":1,}"#, "[1 2]", #"{"a":1]"#, "[}", #""\x""#, "01", "tru", "[", #"{"a":"#,
            "{1:2}",
        ]
        for text in texts {
            let tree = try? JSONReader.read(Array(text.utf8)) { (reader) throws(JSONReader.Failure) in
                try reader.readValue()
            }
            let raw = try? JSONReader.read(Array(text.utf8)) { (reader) throws(JSONReader.Failure) in
                try reader.readUnknown()
            }
            #expect((tree == nil) == (raw == nil), "\(text)")
            if let raw { #expect(raw.description == text) }
        }
    }

    // MARK: The library's fields another computer wrote

    private func imageWith(_ field: String, _ value: String) -> String {
        #"{"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "mine", "url": "u", "aspectRatio": 1, ""#
            + field + #"": "# + value + "}]}]}"
    }

    private func copies(_ count: Int) -> String {
        "["
            + (0..<count).map { #"{"url": "https://e.org/\#($0).png", "origin": {"page": "p"}}"# }
            .joined(separator: ",") + "]"
    }

    @Test func mergedCopiesUpToTheBoundAreReadAndALongerListIsKeptAsRead() throws {
        let bounded = try decoded(imageWith("mergedCopies", copies(MergedCopy.maximumPerImage))).state
        #expect(bounded.galleries[0].images[0].mergedCopies.count == MergedCopy.maximumPerImage)
        let longer = try decoded(imageWith("mergedCopies", copies(MergedCopy.maximumPerImage + 1)))
        let image = longer.state.galleries[0].images[0]
        #expect(image.mergedCopies.isEmpty && longer.droppedFields == 0)
        #expect(image.unknownFields.keys.sorted() == ["mergedCopies"])
        #expect(try decoded(text(longer.state)).state == longer.state)
    }

    @Test func aHugeMergedCopiesListIsDroppedAndCountedAndTheImageLoads() throws {
        let count = StateFileFormat.unknownTextLimit / 40
        let decoded = try decoded(imageWith("mergedCopies", copies(count)))
        let image = try #require(decoded.state.galleries.first?.images.first)
        #expect(image.id == ImageID("mine") && image.mergedCopies.isEmpty && image.unknownFields.isEmpty)
        #expect(decoded.droppedFields == 1)
    }

    @Test func hugeLikenessAndAnimationFieldsAreDroppedAndCounted() throws {
        let huge = String(repeating: "f", count: StateFileFormat.unknownTextLimit + 1)
        let digits = String(repeating: "9", count: StateFileFormat.unknownTextLimit + 1)
        for (field, value) in [
            ("likeness", "\"" + huge + "\""), ("likeness", "\"0123456789abcdef." + huge + "\""),
            ("animation", #"{"frames": \#(digits), "duration": 100}"#),
            ("animation", #"{"frames": 2, "duration": \#(digits)}"#),
        ] {
            let decoded = try decoded(imageWith(field, value))
            let image = try #require(decoded.state.galleries.first?.images.first)
            #expect(image.likeness == nil && image.animation == nil && image.unknownFields.isEmpty, "\(field)")
            #expect(decoded.droppedFields == 1, "\(field)")
        }
    }
}
