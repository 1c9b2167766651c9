import Foundation
import Testing

@testable import GalleryCore

private func decoded(_ text: String) throws -> GalleryState { try StateStore.decode(Data(text.utf8)) }

private func text(_ state: GalleryState) -> String { String(decoding: StateStore.encode(state), as: UTF8.self) }

private func imageWith(likeness: String) -> String {
    #"{"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "i", "url": "u", "aspectRatio": 2, "likeness": "#
        + likeness + "}]}]}"
}

/// An image's likeness in the state file: saved with its record, read back only in its own shape.
@Suite struct LikenessStateFileTests {
    @Test func aLikenessComesBackAsWritten() throws {
        var image = GalleryImage(id: ImageID("i"), url: "https://e.org/cat.jpg", aspectRatio: 1.5)
        let palette = try #require(Palette(rawValue: 0xA7C3_5912_0000_0000))
        image.likeness = Likeness(fingerprint: Fingerprint(rawValue: 0x0123_4567_89AB_CDEF), palette: palette)
        let state = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image])])
        let written = text(state)
        #expect(written.contains("\"likeness\" : \"0123456789abcdef.a7c3591200000000\""))
        #expect(try decoded(written) == state)
    }

    @Test func aLikenessOfAnotherShapeIsKeptAsReadAndNoneIsMade() throws {
        for other in [
            #"{"fingerprint": "0123456789abcdef", "wavelet": [1, 2]}"#, #""0123456789abcdef""#,
            #""0123456789abcdef.0000000000000000""#, #""0123456789abcdef.a7c35912000000001""#,
            #""zz23456789abcdef.a7c3591200000000""#, "\"" + String(repeating: "f", count: 100_000) + "\"", "7",
        ] {
            let state = try decoded(imageWith(likeness: other))
            let image = try #require(state.galleries.first?.images.first)
            #expect(image.likeness == nil)
            #expect(image.unknownFields.keys.sorted() == ["likeness"])
            #expect(try decoded(text(state)) == state)
        }
    }

    @Test func aFileFromBeforeHasNoLikenessAndWritesNone() throws {
        let state = try decoded(
            #"{"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "i", "url": "u", "aspectRatio": 2}]}]}"#
        )
        #expect(state.galleries.first?.images.first?.likeness == nil)
        #expect(!text(state).contains("likeness"))
    }
}
