import Foundation
import Testing

@testable import GalleryCore

/// The colour search's blocks of palettes (`PaletteBlocks`): a search reads only the blocks that may hold its colour,
/// and finds what reading every palette finds, as the library changes.
@MainActor @Suite struct PaletteBlocksTests {
    /// Greens, greys and blues of every shade, and red on one image in about `redEvery`: no image is orange, yellow,
    /// pink or white.
    private static func palette(using random: inout SplitMix64, redEvery: Int = 300) -> Palette {
        let bases: [UInt32] = [0x33A02C, 0x1A5C1A, 0x808080, 0x404040, 0x1C71D8, 0x62A0EA]
        var swatches = (0..<Int.random(in: 1...4, using: &random)).map { _ in
            let base = bases.randomElement(using: &random)!
            let channels = (0..<3).map { channel in
                Float(
                    min(
                        max(Int(base >> UInt32(16 - 8 * channel) & 0xFF) + Int.random(in: -24...24, using: &random), 0),
                        255))
                    / 255
            }
            return Palette.Swatch(
                colour: OklabColour(red: channels[0], green: channels[1], blue: channels[2]),
                share: Float.random(in: 0.02...1, using: &random))
        }
        if Int.random(in: 0..<redEvery, using: &random) == 0 {
            swatches.append(
                Palette.Swatch(colour: OklabColour(rgb: 0xE01B24), share: Float.random(in: 0.15...1, using: &random)))
        }
        let total = swatches.reduce(0) { $0 + $1.share }
        return Palette(
            swatches: swatches.map { Palette.Swatch(colour: $0.colour, share: $0.share / total) }.sorted {
                $0.share > $1.share
            })
    }

    private static func image(_ name: String, using random: inout SplitMix64) -> GalleryImage {
        var image = GalleryImage(id: ImageID(name), url: "https://example.org/\(name).png", aspectRatio: 1)
        // Some not measured yet.
        if Int.random(in: 0..<20, using: &random) != 0 {
            image.likeness = Likeness(
                fingerprint: Fingerprint(rawValue: UInt64.random(in: 0...UInt64.max, using: &random)),
                palette: palette(using: &random))
        }
        return image
    }

    /// A library of three galleries (the first and last more than a block, the middle less) of random palettes.
    private static func library(using random: inout SplitMix64) -> GalleryLibrary {
        let sizes = [700, 90, 1_100]
        return GalleryLibrary(
            state: GalleryState(
                galleries: sizes.enumerated().map { number, size in
                    Gallery(
                        id: "g\(number)", name: "G\(number)",
                        images: (0..<size).map { image("\(number)-\($0)", using: &random) })
                }))
    }

    /// The colours searched: every named one, and picked ones that no image, a few and many images have.
    private static let colours: [SearchColour] =
        NamedColour.allCases.map(SearchColour.named) + [.picked(0xE01B24), .picked(0xFF7800), .picked(0x33A02C)]

    /// What reading every palette finds: each gallery's images of the colour, most of it first, in gallery order
    /// among equals.
    private static func scanned(_ library: GalleryLibrary, for colour: SearchColour) -> [ImageID] {
        let match = ColourMatch(colour)
        return library.galleries.flatMap { gallery in
            library.cells(of: gallery.id).compactMap { cell -> (id: ImageID, coverage: Int)? in
                guard let palette = cell.image?.likeness?.palette else { return nil }
                let coverage = match.coverage(of: palette)
                return coverage > 0 ? (cell.id, coverage) : nil
            }
            .enumerated().sorted { ($0.element.coverage, $1.offset) > ($1.element.coverage, $0.offset) }
            .map(\.element.id)
        }
    }

    /// Each colour's search and count give what reading every palette does; returns how many each found.
    private static func expectSameAsScan(_ library: GalleryLibrary, _ corpus: SearchCorpus) throws -> [Int] {
        try colours.map { colour throws -> Int in
            var query = SearchQuery()
            query.colour = colour
            let expected = scanned(library, for: colour)
            #expect(try #require(corpus.search(query)).ids == expected, "\(colour.text)")
            let counted = corpus.sections.indices.reduce(0) { $0 + corpus.count(query, inSection: $1) }
            #expect(counted == expected.count, "\(colour.text)")
            return expected.count
        }
    }

    @Test func aColourSearchFindsWhatAScanFindsAsImagesComeAndGo() throws {
        var random = SplitMix64(seed: 45)
        let library = Self.library(using: &random)
        let index = SearchIndex(library: library)
        let found = try Self.expectSameAsScan(library, index.corpus)
        // The colours cover none, a few and many images.
        #expect(found.contains(0))
        #expect(found.contains { (1...20).contains($0) })
        #expect(found.contains { $0 > 500 })
        for round in 0..<6 {
            let galleryID = "g\(round % 3)"
            var cells = library.cells(of: galleryID)
            // A red image added, some deleted, one merged into another, one moved, one measured.
            var red = Self.image("new-\(round)", using: &random)
            red.likeness = Likeness(
                fingerprint: Fingerprint(rawValue: 0),
                palette: Palette(swatches: [Palette.Swatch(colour: OklabColour(rgb: 0xE01B24), share: 1)]))
            let placeholder = try #require(
                library.insertPlaceholder(
                    in: galleryID, at: Int.random(in: 0...cells.count, using: &random), label: "new"))
            _ = library.fulfillPlaceholder(placeholder, with: red)
            cells = library.cells(of: galleryID)
            let deleted = Set((0..<5).map { _ in cells.randomElement(using: &random)!.id })
            _ = library.remove(deleted, from: galleryID)
            cells = library.cells(of: galleryID)
            _ = library.merge([DuplicateMerge(kept: cells[1].id, merged: [cells[cells.count / 2].id])])
            cells = library.cells(of: galleryID)
            // The last one moved to the front: the entries between change places, and their blocks' colours.
            _ = library.move([cells[cells.count - 1].id], in: galleryID, toInsertionIndex: 0)
            cells = library.cells(of: galleryID)
            if let unmeasured = cells.firstIndex(where: { $0.image != nil && $0.image?.likeness == nil }) {
                library.recordLikenesses([
                    (
                        id: cells[unmeasured].id, galleryID: galleryID, cellIndex: unmeasured,
                        likeness: Likeness(
                            fingerprint: Fingerprint(rawValue: 1), palette: Self.palette(using: &random, redEvery: 1))
                    )
                ])
            }
            _ = try Self.expectSameAsScan(library, index.corpus)
        }
    }

    @Test func aSearchReadsOnlyTheBlocksThatHoldItsNamedColour() throws {
        var random = SplitMix64(seed: 46)
        let library = Self.library(using: &random)
        let corpus = SearchIndex(library: library).corpus
        for name in NamedColour.allCases {
            let match = ColourMatch(.named(name))
            for (number, section) in corpus.sections.enumerated() {
                let cells = library.cells(of: library.galleries[number].id).filter { $0.image != nil }
                let holding = Set(
                    cells.indices.filter {
                        cells[$0].image?.likeness.map { match.coverage(of: $0.palette) > 0 } ?? false
                    }
                    .map { $0 / PaletteBlocks.blockSize })
                let runs = section.entries.runs(mayHolding: match, within: section.entries.indices)
                let read = Set(runs.flatMap { $0.map { $0 / PaletteBlocks.blockSize } })
                #expect(read == holding, "\(name) in \(section.galleryID)")
            }
        }
        // No image is pink: nothing is read.
        let pink = ColourMatch(.named(.pink))
        #expect(corpus.sections.allSatisfy { $0.entries.runs(mayHolding: pink, within: $0.entries.indices).isEmpty })
    }

    @Test func aPickedColourSkipsTheBlocksWithoutItsShades() throws {
        var random = SplitMix64(seed: 47)
        var blocks = PaletteBlocks()
        let red = Palette(swatches: [Palette.Swatch(colour: OklabColour(rgb: 0xE01B24), share: 1)])
        for position in 0..<1_000 {
            blocks.append(position == 600 ? red.rawValue : Self.palette(using: &random, redEvery: .max).rawValue)
        }
        #expect(blocks.runs(mayHolding: ColourMatch(.picked(0xE01B24)), within: 0..<1_000) == [512..<768])
        #expect(blocks.runs(mayHolding: ColourMatch(.picked(0xE01B24)), within: 550..<620) == [550..<620])
        #expect(blocks.runs(mayHolding: ColourMatch(.picked(0xFF7800)), within: 0..<1_000).isEmpty)
        #expect(blocks.runs(mayHolding: ColourMatch(.named(.green)), within: 100..<1_000) == [100..<1_000])
    }

    /// Likenesses measured again where their images stand (red ones turned grey, others turned red, across blocks)
    /// write those entries alone, and the colours of their blocks follow: each colour's search finds what a scan does.
    @Test func likenessesRecordedInPlaceKeepTheColourSearchRight() throws {
        var random = SplitMix64(seed: 47)
        let library = Self.library(using: &random)
        let index = SearchIndex(library: library)
        var inPlace: [[Int]] = []
        let observation = library.observe { _ in inPlace.append(library.cellsChangedInPlace ?? []) }
        for round in 0..<8 {
            let galleryID = "g\(round % 3)"
            let cells = library.cells(of: galleryID)
            let measured = (0..<1 + round * 3).compactMap { _ -> (ImageID, String, Int, Likeness)? in
                let at = Int.random(in: cells.indices, using: &random)
                guard cells[at].image != nil else { return nil }
                let palette = Self.palette(using: &random, redEvery: round % 2 == 0 ? 1 : 1_000)
                return (cells[at].id, galleryID, at, Likeness(fingerprint: Fingerprint(rawValue: 2), palette: palette))
            }
            let starts = (0..<index.corpus.sections[round % 3].entries.count).map {
                index.corpus.sections[round % 3].entries.start(at: $0)
            }
            let length = index.corpus.sections[round % 3].entries.byteCount
            library.recordLikenesses(measured)
            let entries = index.corpus.sections[round % 3].entries
            let written = Set(inPlace.last ?? [])
            #expect(written == Set(measured.map(\.2)).intersection(written) && !written.isEmpty)
            // Unless the bytes left behind were given back, the other entries stay where they were.
            for position in entries.indices where !written.contains(position) && entries.byteCount > length {
                #expect(entries.start(at: position) == starts[position])
            }
            _ = try Self.expectSameAsScan(library, index.corpus)
        }
        withExtendedLifetime(observation) {}
    }
}
