import Foundation
import Testing

@testable import GalleryCore

private func decoded(_ text: String) throws -> GalleryState { try StateStore.decode(Data(text.utf8)) }

private func text(_ state: GalleryState) -> String { String(decoding: StateStore.encode(state), as: UTF8.self) }

private func imageWith(animation: String) -> String {
    #"{"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "i", "url": "u", "aspectRatio": 2, "animation": "#
        + animation + "}]}]}"
}

private func image(_ name: String, animation: AnimationSummary?) -> GalleryImage {
    var image = GalleryImage(id: ImageID(name), url: "https://example.org/\(name).gif", aspectRatio: 1)
    image.animation = animation
    return image
}

/// Whether an image moves, as its record keeps it: read from its header, saved in the state file beside the image,
/// found by the search's Animated filter and kept in a smart gallery.
@Suite struct AnimationRecordTests {
    @Test func anAnimationAndAStillComeBackAsWritten() throws {
        let state = GalleryState(galleries: [
            Gallery(
                id: "g", name: "G",
                images: [
                    image("moving", animation: AnimationSummary(frameCount: 8, duration: 800)),
                    image("still", animation: .still), image("unread", animation: nil),
                ])
        ])
        let written = text(state)
        #expect(
            written.contains(#""animation" : {"duration" : 800,"frames" : 8}"#) || written.contains("\"frames\" : 8"))
        #expect(written.contains("\"animation\" : false"))
        let read = try decoded(written)
        #expect(read == state)
        #expect(
            read.galleries[0].images.map(\.animation) == [AnimationSummary(frameCount: 8, duration: 800), .still, nil])
        #expect(text(read) == written)
    }

    @Test func aFileFromBeforeReadsFineAndWritesNoAnimation() throws {
        let older =
            #"{"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "i", "url": "u", "aspectRatio": 2}]}]}"#
        let state = try decoded(older)
        #expect(state.galleries.first?.images.first?.animation == nil)
        #expect(state.playAnimations == nil)
        #expect(!text(state).contains("animation"))
        #expect(!text(state).contains("playAnimations"))
    }

    @Test func anAnimationOfAnotherShapeIsKeptAsReadAndNoneIsMade() throws {
        for other in [
            "true", "7", #""gif""#, #"{"frames": 8}"#, #"{"frames": -8, "duration": 800}"#,
            #"{"frames": 1, "duration": 800}"#, #"{"frames": 8, "duration": 1.5}"#,
            #"{"frames": 99999999999, "duration": 800}"#, #"{"frames": 8, "duration": 800, "loops": 2}"#,
        ] {
            let state = try decoded(imageWith(animation: other))
            let image = try #require(state.galleries.first?.images.first)
            #expect(image.animation == nil, "\(other)")
            #expect(image.unknownFields.keys.sorted() == ["animation"], "\(other)")
            #expect(try decoded(text(state)) == state)
        }
    }

    @Test func theSummaryComesFromTheHeaderAndAStillFromNone() {
        #expect(AnimationSummary(nil) == .still)
        #expect(!AnimationSummary.still.isAnimated)
        let summary = AnimationSummary(frameCount: 3, duration: 250)
        #expect(summary.isAnimated && summary.frameCount == 3 && summary.duration == 250)
        #expect(MemoryLayout<AnimationSummary?>.size <= 9)
    }

    @Test func playAnimationsIsSavedAndReadBack() throws {
        var state = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [])])
        state.playAnimations = true
        let written = text(state)
        #expect(written.contains("\"playAnimations\" : true"))
        #expect(try decoded(written).playAnimations == true)
    }

    @MainActor @Test func theAnimatedFilterFindsOnlyAnimatedImagesAndIsKeptInASmartGallery() throws {
        let library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(
                    id: "g", name: "G",
                    images: [
                        image("moving", animation: AnimationSummary(frameCount: 8, duration: 800)),
                        image("still", animation: .still), image("unread", animation: nil),
                    ])
            ]))
        let index = SearchIndex(library: library)
        var query = SearchQuery()
        query.isAnimated = true
        #expect(!query.isEmpty)
        #expect(index.corpus.search(query)?.ids == [ImageID("moving")])
        // Recorded once the header is read: the index follows.
        library.recordAnimations([(ImageID("unread"), "g", 0, AnimationSummary(frameCount: 2, duration: 200))])
        #expect(index.corpus.search(query)?.ids == [ImageID("moving"), ImageID("unread")])

        let smart = SmartGallery(id: "s", name: "Moving", query: query)
        let read = try #require(SmartGallery(json: smart.json))
        #expect(read == smart)
        #expect(read.query.isAnimated)
    }

    @Test func thePropertiesGiveTheFrameCountAndDuration() {
        let moving = image("moving", animation: AnimationSummary(frameCount: 8, duration: 1600))
        let rows = ImageProperties(moving, pixelSize: nil, date: { _ in nil }, byteSize: { _ in "" }).rows
        #expect(rows.first { $0.field == .animation }?.value == "8 frames, 1.6 s")
        let still = image("still", animation: .still)
        #expect(
            !ImageProperties(still, pixelSize: nil, date: { _ in nil }, byteSize: { _ in "" }).rows.contains {
                $0.field == .animation
            })
    }
}
