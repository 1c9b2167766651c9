import Foundation
import Testing

@testable import GalleryCore

/// The state file reader's fast paths (names matched in place, strings scanned eight bytes at a time, plain
/// decimals read without `strtod`) give what the plain paths and Foundation give, on odd JSON too.
@Suite struct JSONReaderTests {
    /// A string of `length` characters drawn from pieces that meet the scan's edge cases at every offset.
    private func oddText(_ random: inout SplitMix64, length: Int) -> String {
        let pieces = [
            "a", "\"", "\\", "/", "{", "}", "[", "]", ",", ":", " ", "\n", "\t", "\u{1}", "é", "€", "😀", "\u{7F}",
        ]
        return String((0..<length).map { _ in pieces.randomElement(using: &random)! }.joined())
    }

    /// JSON text of `string`, escaped as Foundation escapes it.
    private func json(_ string: String) throws -> String {
        String(
            decoding: try JSONSerialization.data(withJSONObject: [string], options: [.fragmentsAllowed]), as: UTF8.self)
    }

    @Test func stringsAreReadAsFoundationReadsThem() throws {
        var random = SplitMix64(seed: 34)
        for length in 0..<40 {
            for _ in 0..<20 {
                let string = oddText(&random, length: length)
                let text = try json(string)
                let read = try JSONReader.read(Array(text.utf8)) { (reader) throws(JSONReader.Failure) in
                    var strings: [String] = []
                    try reader.readArray { (reader) throws(JSONReader.Failure) in
                        strings.append(try reader.readString())
                    }
                    return strings
                }
                #expect(read == [string], "\(text)")
            }
        }
    }

    @Test func aControlCharacterInAStringIsRefusedWhereverItStands() {
        for position in 0..<20 {
            var bytes = Array(#""abcdefghijklmnopqrstuvwxyz""#.utf8)
            bytes[1 + position] = 0x0A
            #expect(throws: JSONReader.Failure.self) {
                try JSONReader.read(bytes) { (reader) throws(JSONReader.Failure) in try reader.readString() }
            }
        }
        #expect(throws: JSONReader.Failure.self) {
            try JSONReader.read(Array(#""abcdefghijklmnop"#.utf8)) { (reader) throws(JSONReader.Failure) in
                try reader.readString()
            }
        }
    }

    @Test func namesMatchWithAndWithoutEscapes() throws {
        let text = #"{"id": 1, "\u0069d": 2, "i\"d": 3, "url" : 4, "\u0075rl": 5, "aspectRatio": 6, "é": 7}"#
        let seen = try JSONReader.read(Array(text.utf8)) { (reader) throws(JSONReader.Failure) in
            var seen: [String] = []
            try reader.readFields { (reader, name) throws(JSONReader.Failure) in
                let number = try reader.readNumber()
                switch name {
                case "id": seen.append("id=\(number)")
                case "url": seen.append("url=\(number)")
                case "aspectRatio": seen.append("ratio=\(number)")
                default: seen.append("\(name.text)=\(number)")
                }
            }
            return seen
        }
        #expect(seen == ["id=1", "id=2", "i\"d=3", "url=4", "url=5", "ratio=6", "é=7"])
    }

    @Test func decimalsAreReadAsDoubleReadsTheirText() throws {
        var random = SplitMix64(seed: 7)
        var texts = [
            "0", "-0", "0.0", "-0.0", "1.5", "0.1", "0.3", "1.499559", "0.666667", "123456789012345",
            "1234567890123456", "0.123456789012345", "9007199254740993", "1e400", "1E-400", "2e+5", "-1.25e-3",
            "0.000000000000001", "99999999999999.9",
        ]
        for _ in 0..<2000 {
            let digits = Int.random(in: 1...17, using: &random)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
            while text.count > 1 && text.first == "0" { text.removeFirst() }
            let point = Int.random(in: 0...text.count, using: &random)
            if point > 0 && point < text.count { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if Bool.random(using: &random) { text = "-" + text }
            texts.append(text)
        }
        for text in texts {
            let read = try JSONReader.read(Array(text.utf8)) { (reader) throws(JSONReader.Failure) in
                try reader.readDouble()
            }
            let expected = try #require(Double(text))
            #expect(read?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test func aStateReadThroughTheFastPathsEqualsOneBuiltFromFoundationsReading() throws {
        var random = SplitMix64(seed: 2026)
        var galleries: [[String: Any]] = []
        var expected: [Gallery] = []
        for g in 0..<3 {
            var images: [[String: Any]] = []
            var gallery = Gallery(id: "g\(g)\(oddText(&random, length: 3))", name: oddText(&random, length: 9))
            for i in 0..<50 {
                let url = "file:///tmp/\(oddText(&random, length: i % 23))/\(i).jpg"
                let ratio = Double(Int.random(in: 1...3_000_000, using: &random)) / 1_000_000
                let id = "i\(g)-\(i)\(oddText(&random, length: i % 5))"
                images.append(["id": id, "url": url, "aspectRatio": ratio])
                gallery.images.append(GalleryImage(id: ImageID(id), url: url, aspectRatio: ratio))
            }
            galleries.append(["id": gallery.id, "name": gallery.name, "images": images])
            expected.append(gallery)
        }
        let data = try JSONSerialization.data(
            withJSONObject: ["version": 1, "shownGalleryID": expected[1].id, "galleries": galleries],
            options: [.prettyPrinted])
        let state = try StateStore.decode(data)
        #expect(state.galleries == expected)
        #expect(state.shownGalleryID == expected[1].id)
        #expect(try StateStore.decode(StateStore.encode(state)) == state)
    }
}
