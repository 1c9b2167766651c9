import Testing

@testable import GalleryCore

@MainActor @Suite struct LookAlikesTests {
    private static func image(_ name: String, _ value: UInt64?) -> GalleryImage {
        var image = GalleryImage(id: ImageID(name), url: "https://example.org/\(name).jpg", aspectRatio: 1)
        image.likeness = value.map { Likeness(fingerprint: Fingerprint(rawValue: $0), palette: Palette(swatches: [])) }
        return image
    }

    /// The look-alikes the index finds, its worker's jobs run at once.
    private static func lookAlikes(in library: GalleryLibrary, of value: UInt64, excluding excluded: String)
        -> SearchResults?
    {
        let index = LikenessIndex(library: library) { work, then in
            work()
            then()
        }
        var found: SearchResults?
        index.lookAlikes(of: Fingerprint(rawValue: value), excluding: ImageID(excluded)) { found = $0 }
        return found
    }

    private typealias Place = (sectionIndex: Int, galleryID: String, name: String, position: Int, id: ImageID)

    /// More Like This as it was before the index answered it: every cell's fingerprint read in turn.
    private static func scanned(_ library: GalleryLibrary, of value: UInt64, excluding excluded: String) -> [Place] {
        var byDistance = [[Place]](repeating: [], count: LookAlikes.farthestDistance + 1)
        for (sectionIndex, gallery) in library.galleries.enumerated() {
            for (position, cell) in library.cells(of: gallery.id).enumerated() {
                guard let other = cell.image?.likeness?.fingerprint, cell.id != ImageID(excluded) else { continue }
                let distance = Fingerprint(rawValue: value).distance(to: other)
                if distance <= LookAlikes.farthestDistance {
                    byDistance[distance].append((sectionIndex, gallery.id, gallery.name, position, cell.id))
                }
            }
        }
        return Array(byDistance.joined().prefix(LookAlikes.mostShown))
    }

    @Test func theIndexFindsWhatAScanOfEveryCellFindsInTheSameOrder() throws {
        var random = SplitMix64(seed: 11)
        let source = UInt64.random(in: 0...UInt64.max, using: &random)
        var values: [UInt64?] = (0..<5_000).map { number in
            number % 7 == 0 ? nil : UInt64.random(in: 0...UInt64.max, using: &random)
        }
        // Copies at every distance, so some are cut by the count.
        for number in stride(from: 3, to: 5_000, by: 11) {
            var value = source
            var bits = Array(0..<64).shuffled(using: &random)
            for _ in 0..<(number % 30) { value ^= 1 << UInt64(bits.removeLast()) }
            values[number] = value
        }
        values[40] = source
        let images = values.enumerated().map { Self.image("\($0)", $1) }
        // Galleries of every size, an empty one among them.
        let sizes = [1_200, 0, 1, 2_000, 799, 1_000]
        var start = 0
        let galleries = sizes.enumerated().map { number, size in
            defer { start += size }
            return Gallery(id: "g\(number)", name: "G\(number)", images: Array(images[start..<start + size]))
        }
        let library = GalleryLibrary(state: GalleryState(galleries: galleries))
        // A placeholder takes a number too.
        _ = try #require(library.insertPlaceholder(in: "g3", label: "x"))

        let found = try #require(Self.lookAlikes(in: library, of: source, excluding: "40"))
        let expected = Self.scanned(library, of: source, excluding: "40")
        #expect(found.ids == expected.map(\.id))
        #expect(found.ids.count == LookAlikes.mostShown)
        #expect(found == SearchResults(lookAlikes: expected))
        for other in [values[3]!, values[5]!, UInt64.random(in: 0...UInt64.max, using: &random)] {
            #expect(
                Self.lookAlikes(in: library, of: other, excluding: "3")
                    == SearchResults(lookAlikes: Self.scanned(library, of: other, excluding: "3")))
        }
    }

    @Test func resultsListTheLookAlikesByGalleryRunInDistanceOrder() throws {
        let library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(
                    id: "a", name: "Cats",
                    images: [Self.image("far", 0xFFFF), Self.image("cat", 0), Self.image("unmeasured", nil)]),
                Gallery(
                    id: "b", name: "Dogs",
                    images: [Self.image("near", 0b1), Self.image("nearer", 0b11_0000_0000_0000_0000)]),
            ]))
        let results = try #require(Self.lookAlikes(in: library, of: 0, excluding: "cat"))
        #expect(results.ids == [ImageID("near"), ImageID("nearer"), ImageID("far")])
        #expect(results.groups.map(\.galleryID) == ["b", "a"])
        #expect(results.groups.map(\.positions) == [[0, 1], [0]])
    }
}
