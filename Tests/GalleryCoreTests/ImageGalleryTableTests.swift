import Testing

@testable import GalleryCore

/// The table of which gallery holds each image answers as a dictionary of ids to gallery ids does, through images
/// placed, moved between galleries and forgotten, and galleries that go and come back.
@Suite struct ImageGalleryTableTests {
    @Test func answersAsADictionaryOfGalleryIDsDoes() {
        var random = SplitMix64(seed: 48)
        var table = ImageGalleryTable(minimumCapacity: 100)
        var expected: [ImageID: String] = [:]
        let galleries = (0..<7).map { "gallery-\($0)-\(String(repeating: "x", count: $0 * 5))" }
        for step in 0..<5_000 {
            let id = ImageID("image-\(Int.random(in: 0..<400, using: &random))")
            let gallery = galleries[Int.random(in: 0..<galleries.count, using: &random)]
            switch step % 4 {
            case 0:
                #expect(table.updateValue(gallery, forKey: id) == expected.updateValue(gallery, forKey: id))
            case 1:
                table[id] = nil
                expected[id] = nil
            default:
                table[id] = gallery
                expected[id] = gallery
            }
            #expect(table[id] == expected[id])
        }
        #expect(table.count == expected.count)
        for number in 0..<400 {
            let id = ImageID("image-\(number)")
            #expect(table[id] == expected[id])
        }
    }

    @Test func anImageOfAGalleryThatCameBackIsFoundInIt() {
        var table = ImageGalleryTable()
        table[ImageID("a")] = "first"
        table[ImageID("b")] = "second"
        table[ImageID("a")] = nil
        table[ImageID("c")] = "first"
        #expect(table[ImageID("a")] == nil)
        #expect(table[ImageID("b")] == "second")
        #expect(table[ImageID("c")] == "first")
        #expect(table.updateValue("second", forKey: ImageID("c")) == "first")
        #expect(table[ImageID("c")] == "second")
        #expect(table.count == 2)
    }
}
