import Foundation
import Testing

@testable import GalleryCore

/// An image with every detail set: texts empty, ASCII and not, a digest, unknown fields at every level.
private func detailedImage(name: String = String(repeating: "0123456789abcdef", count: 4)) -> GalleryImage {
    var image = GalleryImage(id: ImageID("i"), url: "https://a.test/cat.png", aspectRatio: 1.5)
    var origin = ImageOrigin(
        arrival: .drop, added: "2026-11-26T22:40:00Z", link: "", page: "https://пример.test/страница?q=ü",
        altText: "Кот на окне, 🐈", title: nil, browserDescription: "A cat", pageTitle: "Cats & more")
    origin.unknownFields["referrer"] = RawJSON(.string("https://b.test/"))
    image.origin = origin
    var original = KeptOriginal(sha256: name, byteCount: 123_456, pixelWidth: 640, pixelHeight: 480, format: "png")
    original.unknownFields["colourSpace"] = RawJSON(.string("sRGB"))
    image.original = original
    image.note = "Für die Küche\nwall"
    image.tags = ["colour/red", "", "кошки"]
    image.likeness = Likeness(
        fingerprint: Fingerprint(rawValue: 0x1234_5678_9ABC_DEF0), palette: Palette(rawValue: 0x8a5c_4a2b_3d1c_1e2f)!)
    image.animation = AnimationSummary(frameCount: 12, duration: 960)
    image.mergedCopies = [MergedCopy(url: "https://c.test/cat.jpg", origin: ImageOrigin(arrival: .paste))]
    image.unknownFields["future"] = RawJSON(.object(["n": .number("1e400")]))
    return image
}

@Suite struct ImageDetailsTests {
    @Test func everyFieldIsGivenBackAsSet() {
        let name = String(repeating: "0123456789abcdef", count: 4)
        let image = detailedImage(name: name)
        let origin = image.origin
        #expect(origin?.arrival == .drop)
        #expect(origin?.added == "2026-11-26T22:40:00Z")
        #expect(origin?.link == "")
        #expect(origin?.page == "https://пример.test/страница?q=ü")
        #expect(origin?.altText == "Кот на окне, 🐈")
        #expect(origin?.title == nil)
        #expect(origin?.browserDescription == "A cat")
        #expect(origin?.pageTitle == "Cats & more")
        #expect(origin?.unknownFields == ["referrer": RawJSON(.string("https://b.test/"))])
        #expect(image.original?.sha256 == name)
        #expect(image.original?.byteCount == 123_456)
        #expect(image.original?.pixelWidth == 640)
        #expect(image.original?.pixelHeight == 480)
        #expect(image.original?.format == "png")
        #expect(image.original?.unknownFields == ["colourSpace": RawJSON(.string("sRGB"))])
        #expect(image.note == "Für die Küche\nwall")
        #expect(image.tags == ["colour/red", "", "кошки"])
        #expect(image.likeness?.fingerprint.rawValue == 0x1234_5678_9ABC_DEF0)
        #expect(image.animation == AnimationSummary(frameCount: 12, duration: 960))
        #expect(image.mergedCopies == [MergedCopy(url: "https://c.test/cat.jpg", origin: ImageOrigin(arrival: .paste))])
        #expect(image.unknownFields == ["future": RawJSON(.object(["n": .number("1e400")]))])
    }

    @Test func anOriginalsNameIsKeptAsItsBytesAndAnyOtherNameAsText() {
        let digest = String(repeating: "f0", count: 32)
        #expect(detailedImage(name: digest).original?.sha256 == digest)
        #expect(detailedImage(name: digest).detailText(.name) == nil)
        for name in ["", "not a digest", String(repeating: "F0", count: 32), String(repeating: "0", count: 63), "é"] {
            let image = detailedImage(name: name)
            #expect(image.original?.sha256 == name)
            #expect(image.detailText(.name).map(String.init) == name)
        }
    }

    @Test func anOriginalsDigestIsGivenWithoutItsName() {
        let name = String(repeating: "0123456789abcdef", count: 4)
        #expect(detailedImage(name: name).originalDigest == OriginalDigest(name: name))
        #expect(detailedImage(name: name).originalDigest != OriginalDigest(name: String(repeating: "f0", count: 32)))
        #expect(detailedImage(name: "not a digest").originalDigest == nil)
        #expect(GalleryImage(id: ImageID("i"), url: "https://a.test/cat.png", aspectRatio: 1).originalDigest == nil)
        #expect(OriginalDigest(name: String(repeating: "F0", count: 32)) == nil)
    }

    @Test func anImagesTextsShareOneString() {
        let image = detailedImage()
        let note = image.detailText(.note)
        let page = image.detailText(.page)
        #expect(note == "Für die Küche\nwall")
        #expect(page == "https://пример.test/страница?q=ü")
        #expect(note?.base == page?.base)
        #expect(note?.base.utf8.count == page?.base.utf8.count)
        #expect((note?.base.utf8.count ?? 0) < 200)
    }

    @Test func emptyAndAbsentTextsDiffer() {
        var image = GalleryImage(url: "https://a.test/1.png", aspectRatio: 1)
        image.note = ""
        #expect(image.note == "")
        #expect(image.origin == nil)
        image.origin = ImageOrigin()
        #expect(image.origin == ImageOrigin())
        #expect(image.origin?.added == nil)
        image.note = nil
        image.origin = nil
        #expect(image.details == nil)
        #expect(image == GalleryImage(id: image.id, url: image.url, aspectRatio: 1))
    }

    @Test func copiesShareOneBoxUntilOneChanges() throws {
        let image = detailedImage()
        var copy = image
        #expect(copy.details === image.details)
        copy.note = "Other"
        #expect(copy.details !== image.details)
        #expect(image.note == "Für die Küche\nwall")
        #expect(copy.note == "Other")
        #expect(copy.origin == image.origin)
        #expect(copy != image)
    }

    @Test func equalityAndHashAreByValue() {
        let image = detailedImage()
        var rebuilt = GalleryImage(id: image.id, url: image.url, aspectRatio: image.aspectRatio)
        rebuilt.unknownFields = image.unknownFields
        rebuilt.mergedCopies = image.mergedCopies
        rebuilt.animation = image.animation
        rebuilt.likeness = image.likeness
        rebuilt.tags = image.tags
        rebuilt.note = image.note
        rebuilt.original = image.original
        rebuilt.origin = image.origin
        #expect(rebuilt.details !== image.details)
        #expect(rebuilt == image)
        #expect(rebuilt.hashValue == image.hashValue)
        var other = rebuilt
        other.origin?.title = ""
        #expect(other != image)
        other = rebuilt
        other.original?.pixelHeight = 481
        #expect(other != image)
    }

    /// As `String` compares: a text written composed or decomposed is the same text, in either field.
    @Test func textsCompareAsStrings() {
        var composed = GalleryImage(id: ImageID("i"), url: "u", aspectRatio: 1)
        composed.note = "caf\u{E9}"
        composed.origin = ImageOrigin(altText: "\u{212A}elvin")
        var decomposed = composed
        decomposed.note = "cafe\u{301}"
        decomposed.origin = ImageOrigin(altText: "Kelvin")
        #expect(composed.note.map { Array($0.utf8) } != decomposed.note.map { Array($0.utf8) })
        #expect(composed == decomposed)
        #expect(composed.hashValue == decomposed.hashValue)
        decomposed.note = "cafe"
        #expect(composed != decomposed)
        // One box all ASCII, the other not.
        var ascii = GalleryImage(id: ImageID("i"), url: "u", aspectRatio: 1)
        ascii.note = "Kelvin"
        ascii.origin = ImageOrigin(added: "2026", page: "https://a.test/")
        var kelvin = ascii
        kelvin.note = "\u{212A}elvin"
        #expect(ascii == kelvin)
        #expect(ascii.hashValue == kelvin.hashValue)
        kelvin.origin?.page = "https://b.test/"
        #expect(ascii != kelvin)
        #expect(ascii.hashValue != kelvin.hashValue)
    }

    @Test func theStateFileReadsBackEveryField() throws {
        for name in [String(repeating: "0123456789abcdef", count: 4), String(repeating: "ab", count: 32)] {
            let image = detailedImage(name: name)
            var plain = GalleryImage(id: ImageID("p"), url: "https://a.test/2.png", aspectRatio: 1)
            plain.note = ""
            let state = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image, plain])])
            let read = try StateFileFormat.decode(StateFileFormat.encode(state))
            #expect(read.galleries[0].images == [image, plain])
            #expect(read.galleries[0].images[0].original?.sha256 == name)
            let readImage = read.galleries[0].images[0]
            #expect(readImage.origin == image.origin)
            #expect(readImage.original == image.original)
            #expect(readImage.note == image.note)
            #expect(readImage.tags == image.tags)
            #expect(readImage.likeness == image.likeness)
            #expect(readImage.animation == image.animation)
            #expect(readImage.mergedCopies == image.mergedCopies)
            #expect(readImage.unknownFields == image.unknownFields)
            #expect(StateFileFormat.encode(read) == StateFileFormat.encode(state))
        }
    }

    @Test func anOriginIsWrittenFromItsPackedTextsAsItsValueWritesIt() throws {
        var origins = [
            ImageOrigin(), detailedImage().origin!,
            ImageOrigin(
                arrival: .folder, added: "", link: "a\"b\\c\n", page: "p", altText: "é", title: "t",
                browserDescription: "d", pageTitle: "Кот"),
        ]
        origins[1].unknownFields = [:]
        origins.append(detailedImage().origin!)
        for origin in origins {
            var image = GalleryImage(url: "u", aspectRatio: 1)
            image.origin = origin
            var packed = JSONWriter()
            try #require(image.details).writeOrigin(to: &packed)
            var value = JSONWriter()
            origin.write(to: &value)
            #expect(packed.bytes == value.bytes)
        }
    }
}
