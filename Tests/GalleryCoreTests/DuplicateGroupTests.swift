import Testing

@testable import GalleryCore

@Suite struct DuplicateGroupTests {
    private func image(_ name: String, _ fingerprint: UInt64, pixels: (Int, Int), format: String, bytes: Int)
        -> GalleryCell
    {
        var image = GalleryImage(id: ImageID(name), url: "https://example.org/\(name)", aspectRatio: 1.5)
        image.likeness = Likeness(fingerprint: Fingerprint(rawValue: fingerprint), palette: Palette(swatches: []))
        image.original = KeptOriginal(
            sha256: String(repeating: "a", count: 64), byteCount: bytes, pixelWidth: pixels.0, pixelHeight: pixels.1,
            format: format)
        return GalleryCell(image)
    }

    @Test func eachGroupPutsTheBestCopyFirstAndNamesWhatDiffers() throws {
        let galleries: [(id: String, name: String, cells: [GalleryCell])] = [
            (
                "cats", "Cats",
                [
                    image("cat-small.jpg", 0b1, pixels: (240, 180), format: "jpeg", bytes: 9_000),
                    image("owl.png", 0xFFFF_FFFF, pixels: (480, 360), format: "png", bytes: 90_000),
                    image("cat.jpg", 0, pixels: (480, 360), format: "jpeg", bytes: 40_000),
                ]
            ),
            (
                "more", "More",
                [
                    image("cat.png", 0b11, pixels: (480, 360), format: "png", bytes: 200_000),
                    image("dog.jpg", 0xFFFF_FFFF_0000_0000, pixels: (300, 200), format: "jpeg", bytes: 9_000),
                    image("dog-copy.jpg", 0xFFFF_FFFF_0000_0001, pixels: (300, 200), format: "jpeg", bytes: 9_000),
                ]
            ),
        ]
        let groups = try #require(DuplicateGroup.find(in: galleries))
        #expect(
            groups.map { $0.members.map(\.image.id.rawValue) } == [
                ["cat.png", "cat-small.jpg", "cat.jpg"], ["dog.jpg", "dog-copy.jpg"],
            ])
        #expect(groups[0].differences == [.pixelSize, .format, .byteSize, .gallery])
        #expect(groups[1].differences == [])
        #expect(groups[0].merge.kept == ImageID("cat.png"))
        #expect(groups[0].merge.merged == [ImageID("cat-small.jpg"), ImageID("cat.jpg")])
    }

    @Test func aCancelledSearchFindsNothing() {
        let galleries: [(id: String, name: String, cells: [GalleryCell])] = [
            ("cats", "Cats", [image("cat.jpg", 0, pixels: (1, 1), format: "png", bytes: 1)])
        ]
        #expect(DuplicateGroup.find(in: galleries) { true } == nil)
    }
}
