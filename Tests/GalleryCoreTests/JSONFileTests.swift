import Foundation
import Testing

@testable import GalleryCore

@Suite struct JSONFileTests {
    @Test func aValueRoundTripsThroughItsText() throws {
        let value = JSONValue.object([
            "name": .string("Ünïcode \"quoted\" / slash\n"), "ratio": .number(1.5), "whole": .number(2.0),
            "count": .number(7), "flag": .bool(true), "none": .null,
            "list": .array([.string("a"), .number(-0.25), .object([:]), .array([])]),
        ])
        let text = JSONFile.text(value)
        #expect(JSONFile.value(text) == value)
        #expect(value["whole"] == .number("2"))
        #expect(value["ratio"]?.double == 1.5)
        #expect(value["whole"]?.integer == 2)
        #expect(value["ratio"]?.integer == nil)
        #expect(value["list"]?.array?.first?.string == "a")
        #expect(value["missing"] == nil)
        #expect(JSONValue.string("x")["name"] == nil)
    }

    @Test func textIsLaidOutAsFoundationsPrettyPrintedSortedJSON() {
        let text = JSONFile.text(.object(["b": .array([.number(1)]), "a": .string("/x")]))
        #expect(String(decoding: text, as: UTF8.self) == "{\n  \"a\" : \"/x\",\n  \"b\" : [\n    1\n  ]\n}")
    }

    @Test func aFileIsReadWithinItsCapAndNothingElseIsTakenForJSON() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("json-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("record.json")
        // As Foundation's `JSONSerialization` wrote it: on one line, slashes escaped.
        try Data(#"{"approved":["http:\/\/192.168.1.2\/a.png"]}"#.utf8).write(to: file)
        #expect(JSONFile.read(file.path)?["approved"]?.array == [.string("http://192.168.1.2/a.png")])
        #expect(JSONFile.read(file.path, limit: 10) == nil)
        #expect(JSONFile.read(folder.path) == nil)
        #expect(JSONFile.read(folder.appendingPathComponent("missing.json").path) == nil)
        try Data(#"{"a": 1} trailing"#.utf8).write(to: file)
        #expect(JSONFile.read(file.path) == nil)
    }
}
