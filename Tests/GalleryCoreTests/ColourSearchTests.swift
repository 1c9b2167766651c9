import Foundation
import Testing

@testable import GalleryCore

/// A picture of `colour` (0xRRGGBB) with a little noise, and `other` over the given share of its rows.
private func likeness(of colour: UInt32, other: UInt32 = 0xFFFFFF, otherShare: Double = 0, seed: UInt64 = 1)
    -> Likeness
{
    var random = SplitMix64(seed: seed)
    let (width, height) = (120, 90)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        let shown = Double(y) < otherShare * Double(height) ? other : colour
        for x in 0..<width {
            for channel in 0..<3 {
                let value = Int(shown >> UInt32(16 - 8 * channel) & 0xFF) + Int.random(in: -12...12, using: &random)
                pixels[(y * width + x) * 3 + channel] = UInt8(min(max(value, 0), 255))
            }
        }
    }
    return Likeness(ColourGrid(pixels: pixels.span, width: width, height: height, rowBytes: width * 3, layout: .rgb))
}

@Suite struct ColourMatchTests {
    /// Colours as photos and the web show them, each with the name a person gives it.
    static let named: [(UInt32, NamedColour)] = [
        (0xC0102A, .red), (0xFF2020, .red), (0x8B0000, .red), (0xFF8C00, .orange), (0xF28500, .orange),
        (0xFFD700, .yellow), (0xFFF44F, .yellow), (0x228B22, .green), (0x7CFC00, .green), (0x556B2F, .green),
        (0x000080, .blue), (0x87CEEB, .blue), (0x4169E1, .blue), (0x008B8B, .blue), (0x663399, .purple),
        (0x9370DB, .purple), (0xFF69B4, .pink), (0xFFB6C1, .pink), (0xC71585, .pink), (0x8B4513, .brown),
        (0x654321, .brown), (0x0A0A0A, .black), (0x808080, .grey), (0x4A4A4A, .grey), (0xC8C8C8, .grey),
        (0xFAFAFA, .white), (0xFFFFF0, .white),
    ]

    @Test(arguments: named) func aPictureOfAColourIsFoundByItsNameAndNoOther(colour: UInt32, name: NamedColour) {
        let palette = likeness(of: colour).palette
        for other in NamedColour.allCases {
            let coverage = ColourMatch(.named(other)).coverage(of: palette)
            #expect((coverage > 0) == (other == name), "\(String(colour, radix: 16)) as \(other)")
        }
    }

    @Test func aSpeckOfTheColourIsNotEnough() {
        let speck = likeness(of: 0x1C71D8, other: 0xE01B24, otherShare: 0.04).palette
        #expect(ColourMatch(.named(.red)).coverage(of: speck) == 0)
        let quarter = likeness(of: 0x1C71D8, other: 0xE01B24, otherShare: 0.25).palette
        let half = likeness(of: 0x1C71D8, other: 0xE01B24, otherShare: 0.5).palette
        let red = ColourMatch(.named(.red))
        #expect(red.coverage(of: quarter) > 0)
        #expect(red.coverage(of: half) > red.coverage(of: quarter))
    }

    @Test func aPickedColourFindsItsShadesAndNotItsNeighbours() {
        let teal = ColourMatch(.picked(0x008080))
        #expect(teal.coverage(of: likeness(of: 0x008080).palette) == 15)
        #expect(teal.coverage(of: likeness(of: 0x0A8A7A).palette) > 0)
        for other: UInt32 in [0x1C71D8, 0x33A02C, 0x808080, 0x000000, 0xE01B24] {
            #expect(teal.coverage(of: likeness(of: other).palette) == 0, "\(String(other, radix: 16))")
        }
    }

    @Test func colourTextRoundTripsAndOtherTextIsRefused() {
        for colour in NamedColour.allCases.map(SearchColour.named) + [.picked(0x00_80_80), .picked(0xFF_FF_FF)] {
            #expect(SearchColour(text: colour.text) == colour)
        }
        #expect(SearchColour.picked(0x0000FF).text == "#0000ff")
        for text in ["", "teal", "#12345", "#1234567", "#12345g", "Red", "#+12345"] {
            #expect(SearchColour(text: text) == nil, "\(text)")
        }
    }
}

@MainActor @Suite struct ColourSearchTests {
    private func image(_ name: String, _ likeness: Likeness?) -> GalleryImage {
        var image = GalleryImage(id: ImageID(name), url: "https://example.org/\(name).png", aspectRatio: 1)
        image.likeness = likeness
        return image
    }

    private func corpus() -> SearchCorpus {
        let library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(
                    id: "g", name: "G",
                    images: [
                        image("blue", likeness(of: 0x1C71D8)),
                        image("some-red", likeness(of: 0x1C71D8, other: 0xE01B24, otherShare: 0.3)),
                        image("unmeasured", nil),
                        image("red", likeness(of: 0xE01B24)),
                        image("dark-red", likeness(of: 0x8B0000, other: 0xFFFFFF, otherShare: 0.4)),
                        image("orange", likeness(of: 0xFF7800)),
                        image("pink", likeness(of: 0xF08CBA)),
                    ])
            ]))
        return SearchIndex(library: library).corpus
    }

    @Test func aColourFindsItsImagesAndOnlyThemMostOfItFirst() throws {
        var query = SearchQuery()
        query.colour = .named(.red)
        #expect(!query.isEmpty)
        let found = try #require(corpus().search(query)).ids.map(\.rawValue)
        #expect(found == ["red", "dark-red", "some-red"])
        // A picked colour: its own shade only, not the dark red.
        query.colour = .picked(0xE01B24)
        #expect(try #require(corpus().search(query)).ids.map(\.rawValue) == ["red", "some-red"])
    }

    @Test func wordsNarrowAColourSearchInItsOrder() throws {
        let corpus = corpus()
        var query = SearchQuery()
        query.colour = .named(.red)
        let all = try #require(corpus.search(query))
        query.text = "red"
        let narrowed = try #require(corpus.search(query, narrowing: all))
        #expect(narrowed.ids.map(\.rawValue) == ["red", "dark-red", "some-red"])
        query.text = "dark-red"
        #expect(try #require(corpus.refine(narrowed, to: query)).ids.map(\.rawValue) == ["dark-red"])
    }

    @Test func aColourWithALimitStopsAtTheEndOfAGalleryAndNarrowingItFindsTheRest() throws {
        let galleries = (0..<3).map { number in
            Gallery(
                id: "g\(number)", name: "G\(number)",
                images: [
                    image("some-red-\(number)", likeness(of: 0x1C71D8, other: 0xE01B24, otherShare: 0.3)),
                    image("blue-\(number)", likeness(of: 0x1C71D8)),
                    image("red-\(number)", likeness(of: 0xE01B24)),
                    image("dark-red-\(number)", likeness(of: 0x8B0000, other: 0xFFFFFF, otherShare: 0.4)),
                ])
        }
        let corpus = SearchIndex(library: GalleryLibrary(state: GalleryState(galleries: galleries))).corpus
        var query = SearchQuery()
        query.colour = .named(.red)
        let whole = try #require(corpus.search(query))
        #expect(whole.count == 9)
        // The first gallery's images, most of the colour first, and no further.
        let first = try #require(corpus.search(query, limit: 2))
        #expect(first.ids.map(\.rawValue) == ["red-0", "dark-red-0", "some-red-0"])
        #expect(!first.isComplete)
        let rest = try #require(corpus.search(query, narrowing: first))
        #expect(rest.ids == whole.ids)
        #expect(rest.isComplete)
    }

    @Test func aSmartGalleryKeepsItsColourInTheStateFile() throws {
        for colour in [SearchColour.named(.green), .picked(0x336699)] {
            var query = SearchQuery(text: "leaf")
            query.colour = colour
            var state = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [])])
            state.smartGalleries = [SmartGallery(id: "s", name: "Leaves", query: query)]
            let data = StateFileFormat.encode(state)
            #expect(String(decoding: data, as: UTF8.self).contains("\"colour\" : \"\(colour.text)\""))
            let read = try StateFileFormat.decode(data)
            #expect(read.smartGalleries.first?.query.colour == colour)
            #expect(StateFileFormat.encode(read) == data)
            // A colour this version does not know keeps the field as read.
            let newer = String(decoding: data, as: UTF8.self).replacingOccurrences(
                of: "\"\(colour.text)\"", with: "\"ultraviolet\"")
            let kept = try StateFileFormat.decode(Data(newer.utf8))
            #expect(kept.smartGalleries.isEmpty)
            #expect(kept.unknownFields["smartGalleries"] != nil)
        }
    }
}
