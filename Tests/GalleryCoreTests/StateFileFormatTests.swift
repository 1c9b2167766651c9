import Foundation
import Testing

@testable import GalleryCore

private func decoded(_ text: String) throws -> GalleryState { try StateStore.decode(Data(text.utf8)) }

private func text(_ state: GalleryState) -> String { String(decoding: StateStore.encode(state), as: UTF8.self) }

/// The state file's own JSON reader and writer: exact numbers, odd numbers, the layout of before.
@Suite struct StateFileFormatTests {
    @Test func numbersInUnknownFieldsComeBackAsTheyWereWritten() throws {
        let numbers = [
            "9007199254740993", "-9223372036854775809", "123456789012345678901234567890",
            "3.14159265358979323846264338327950288", "1e400", "-0", "1E-400", "0.1", "1.0", "2e+5",
        ]
        let list = numbers.joined(separator: ", ")
        let state = try decoded(
            """
            {"version": 1, "big": [\(list)], "galleries": [{"id": "g", "name": "G", "count": 18446744073709551617,
             "images": [{"id": "i", "url": "u", "aspectRatio": 1.5, "size": 1e400, "deep": {"n": -0}}]}]}
            """)
        #expect(state.unknownFields["big"] == RawJSON(.array(numbers.map(JSONValue.number))))
        let written = text(state)
        for number in numbers { #expect(written.contains(number)) }
        #expect(written.contains("\"count\" : 18446744073709551617"))
        #expect(written.contains("\"size\" : 1e400"))
        #expect(written.contains(#""deep" : {"n": -0}"#))  // as read: unknown values keep their text
        #expect(try decoded(written) == state)
    }

    @Test func anOddNumberInAKnownFieldLeavesTheFileReadable() throws {
        for ratio in ["1e400", "-1e400", "-0", "1E-400", "123456789012345678901234567890"] {
            let state = try decoded(
                #"{"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "i", "url": "u", "aspectRatio": \#(ratio)}]}]}"#
            )
            let image = try #require(state.galleries.first?.images.first)
            #expect(image.displayAspectRatio > 0)
            #expect(try decoded(text(state)).galleries[0].images[0].id == ImageID("i"))
        }
        // A version too big for any integer is a newer one's, kept aside as such.
        #expect(try decoded(#"{"version": 1e400, "galleries": []}"#).version > GalleryState.currentVersion)
    }

    @Test func theLayoutIsTheOneFoundationWroteBefore() {
        var state = GalleryState(
            galleries: [
                Gallery(
                    id: "g", name: "Cats \"and\" dogs\n",
                    images: [GalleryImage(id: ImageID("a"), url: "https://e.org/a/b.png", aspectRatio: 1.5)]),
                Gallery(id: "e", name: "É\u{1}"),
            ], shownGalleryID: "g")
        state.galleries[0].unknownFields = [
            "colour": RawJSON(.string("teal")), "list": RawJSON(.array([])), "map": RawJSON(.object([:])),
        ]
        #expect(
            text(state) == """
                {
                  "galleries" : [
                    {
                      "colour" : "teal",
                      "id" : "g",
                      "images" : [
                        {
                          "aspectRatio" : 1.5,
                          "id" : "a",
                          "url" : "https://e.org/a/b.png"
                        }
                      ],
                      "list" : [

                      ],
                      "map" : {

                      },
                      "name" : "Cats \\"and\\" dogs\\n"
                    },
                    {
                      "id" : "e",
                      "images" : [

                      ],
                      "name" : "É\\u0001"
                    }
                  ],
                  "shownGalleryID" : "g",
                  "version" : 1
                }
                """)
    }

    @Test func stringsWithEscapesAndAnyCharacterRoundTrip() throws {
        let state = try decoded(
            #"{"version":1,"galleries":[{"id":"\u0067","name":"\ud83d\ude00 \u00e9\t\"\\\/ \ud800!","images":[]}]}"#)
        #expect(state.galleries[0].id == "g")
        #expect(state.galleries[0].name == "😀 é\t\"\\/ \u{FFFD}!")
        #expect(try decoded(text(state)) == state)
    }

    @Test func whatIsNotJSONOrNotAStateIsRefused() {
        let refused = [
            "", "{", #"{"version":1,"galleries":[],}"#, #"{"version":01,"galleries":[]}"#,
            #"{"version":1,"galleries":[]} x"#, #"{"version":1}"#, #"{"version":"1","galleries":[]}"#,
            #"{"version":1,"galleries":[{"id":"g","name":"G"}]}"#, #"{"version":1,"galleries":[],"n":1.}"#,
            #"{"version":1,"galleries":[],"n":-}"#, #"{"version":1,"galleries":[],"s":"a\x"}"#,
            "{\"version\":1,\"galleries\":[],\"s\":\"a\u{1}\"}", #"{"version":1,"galleries":[],"n":nul}"#,
        ]
        for text in refused { #expect(throws: (any Error).self, "\(text)") { try decoded(text) } }
    }

    @Test func deepNestingIsRefusedWithoutExhaustingTheStack() throws {
        let depth = 200_000
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: (any Error).self) { try decoded(#"{"version":1,"galleries":[],"deep":\#(deep)}"#) }
        let allowed = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(try decoded(#"{"version":1,"galleries":[],"deep":\#(allowed)}"#).unknownFields["deep"] != nil)
    }

    @Test func aFileWithAByteOrderMarkAndNullSettingsLoads() throws {
        let state = try decoded(
            "\u{FEFF}{\"version\":1,\"galleries\":[],\"shownGalleryID\":null,\"sidebarVisible\":null}")
        #expect(state.shownGalleryID == nil && state.sidebarVisible == nil)
    }
}

/// The library's fields of an image: kept, read back, and older or odd files still load.
@Suite struct LibraryFieldsTests {
    private let hash = String(repeating: "ab", count: 32)

    @Test func originOriginalAndNoteComeBackAsWritten() throws {
        var image = GalleryImage(id: ImageID("i"), url: "https://e.org/cat.jpg", aspectRatio: 1.5)
        image.original = KeptOriginal(sha256: hash, byteCount: 12345, pixelWidth: 300, pixelHeight: 200, format: "jpeg")
        image.origin = ImageOrigin(
            arrival: .drop, added: "2026-11-26T22:40:00Z", link: "https://e.org/cats/", page: "https://e.org/",
            altText: "A cat «Mürr»", title: "Cat", browserDescription: "cat.jpg")
        image.note = "for the poster\nline two"
        image.tags = ["colour/red", "cats", "кошки"]
        let state = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image])])
        let written = text(state)
        #expect(written.contains("\"sha256\" : \"\(hash)\""))
        #expect(written.contains("\"alt\" : \"A cat «Mürr»\""))
        #expect(try decoded(written) == state)
    }

    @Test func anImageWithoutTheFieldsLoadsAsBefore() throws {
        let state = try decoded(
            #"{"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "i", "url": "u", "aspectRatio": 2}]}]}"#
        )
        let image = try #require(state.galleries.first?.images.first)
        #expect(image.original == nil && image.origin == nil && image.note == nil)
        #expect(!text(state).contains("origin"))
    }

    @Test func fieldsOfAnotherShapeAreKeptAsRead() throws {
        let state = try decoded(
            """
            {"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "i", "url": "u", "aspectRatio": 2,
             "original": {"sha256": "../../etc/passwd", "bytes": 3}, "origin": [1], "note": 7, "tags": ["a", 1],
             "future": true}]}]}
            """)
        let image = try #require(state.galleries.first?.images.first)
        #expect(image.original == nil && image.origin == nil && image.note == nil && image.tags.isEmpty)
        #expect(image.unknownFields.keys.sorted() == ["future", "note", "origin", "original", "tags"])
        #expect(try decoded(text(state)) == state)
    }

    @Test func unknownSubfieldsAreKept() throws {
        let state = try decoded(
            """
            {"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "i", "url": "u", "aspectRatio": 2,
             "original": {"sha256": "\(hash)", "bytes": 3, "width": 1, "height": 1, "blurhash": "x"},
             "origin": {"arrival": "teleport", "link": "https://e.org/", "rating": 5}}]}]}
            """)
        let image = try #require(state.galleries.first?.images.first)
        #expect(image.original?.unknownFields == ["blurhash": RawJSON(.string("x"))])
        #expect(image.origin?.arrival == nil)
        #expect(image.origin?.link == "https://e.org/")
        #expect(
            image.origin?.unknownFields == ["arrival": RawJSON(.string("teleport")), "rating": RawJSON(.number("5"))])
        #expect(try decoded(text(state)) == state)
    }

    @Test func originalNamesAreOnlyHexDigests() {
        #expect(KeptOriginal.isValidName(hash))
        #expect(!KeptOriginal.isValidName(String(repeating: "AB", count: 32)))
        #expect(!KeptOriginal.isValidName("../" + String(repeating: "a", count: 61)))
        #expect(!KeptOriginal.isValidName(String(repeating: "a", count: 63)))
    }
}
