import Foundation
import Testing

@testable import GalleryCore

private let texts = [
    "crème", "Brûlée", "Élysée", "ёлка", "Зима", "МОСКВА", "harbour", "Straße", "площадь", "a\nb", "İstanbul",
    "한국", "e\u{301}té", String(repeating: "long ", count: 40),
]
private let tags = [
    "colour/red", "colour/blue", "Зима/снег", "été", "ÉTÉ/août", "people", "a\nb", String(repeating: "ж", count: 90),
]
private let addresses = [
    "https://example.org/Holiday-Photo.JPG", "https://example.org/caf%C3%A9.png", "https://example.org/a/",
    "https://example.org/e\u{301}/\u{301}x.png", "https://example.org/x.png?name=x.png",
    "https://www.Example.org/a.png", "http://user:pw@cdn.example.org:8080/b.jpg?x=1#y", "http://[::1]:8080/c.webp",
    "https://яндекс.рф/фото.JPG", "https://WWW.Louvre.fr/oeuvre", "data:image/png;base64,AAAA",
    "file:///home/me/photo.tiff", "https://blog.example.com/post/1", "https://ÉCOLE.fr/é.gif", "weird",
    "http://jérôme:ß@photos.example.org/ô.png",
]

/// Times as the app writes them, and texts of other shapes a hand-edited file may hold.
private let addedTimes = [
    "2026-03-10T10:00:00Z", "2026-07-01T00:00:00Z", "2026-05-01T00:00:00Z", "0999-01-01T00:00:00Z", "2026-05",
    "2026-05-01T00:00:00.5Z", "2026-05-01t00:00:00z", "2026-06-01T00:00:00+02:00", "",
]

private func randomImage(_ index: Int, _ random: inout SplitMix64) -> GalleryImage {
    func some(_ values: [String]) -> String? {
        Bool.random(using: &random) ? values.randomElement(using: &random)! : nil
    }
    var image = GalleryImage(
        id: ImageID("i\(index)"), url: addresses.randomElement(using: &random)!,
        aspectRatio: [0.5, 0.96, 1, 1.04, 2].randomElement(using: &random)!)
    image.note = some(texts)
    image.tags = Array(tags.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)))
    if Bool.random(using: &random) {
        image.origin = ImageOrigin(
            added: some(addedTimes), link: some(addresses),
            page: some(addresses), altText: some(texts), title: some(texts), browserDescription: some(texts))
    }
    if Int.random(in: 0..<4, using: &random) == 0 {
        image.original = KeptOriginal(
            sha256: "0", byteCount: 1, pixelWidth: 1, pixelHeight: 1, format: some(["PNG", "WebP", "JPEG XL"]))
    }
    return image
}

/// The entry of an image as it was made before entries were kept compactly: each field folded on its own, the label
/// left out when the address holds it.
private func entryOfEachField(_ image: GalleryImage) -> SearchEntry {
    var folding = SearchFolding()
    let origin = image.origin
    var text: [UInt8] = []
    // A label in ASCII whose bytes the address holds finds nothing the address does not.
    let label = image.label
    let labelInAddress =
        label.utf8.allSatisfy { $0 < 0x80 } && Array(image.url.utf8).firstRange(of: Array(label.utf8)) != nil
    let fields = [
        labelInAddress ? nil : label, image.url, origin?.link, origin?.page, origin?.altText, origin?.title,
        origin?.browserDescription, image.note,
    ]
    for field in fields.compactMap(\.self) + image.tags {
        folding.append(field, to: &text)
        text.append(0x0A)
    }
    let domains = [image.url, origin?.link, origin?.page].compactMap { address in
        address.flatMap { address in
            SearchEntry.hostRange(of: address).map {
                folding.string(String(decoding: Array(address.utf8)[$0], as: UTF8.self))
            }
        }
    }
    let ratio = image.displayAspectRatio
    let format =
        image.original?.format ?? SearchEntry.fileExtension(of: image.url).flatMap(ImageFormat.forFileExtension)?.name
    return SearchEntry(
        id: image.id, text: text, tags: image.tags.map { folding.string($0) }, domains: domains,
        added: origin?.added, orientation: ratio > 1.05 ? .landscape : ratio < 0.95 ? .portrait : .square,
        format: format?.lowercased(), hasNote: image.note != nil, isAnimated: image.animation?.isAnimated ?? false,
        sourceHash: image.hashValue)
}

/// The filters as they were compared on an entry of its own, as strings.
private func passes(_ entry: SearchEntry, _ query: SearchQuery) -> Bool {
    var folding = SearchFolding()
    if let tag = query.tag.map({ folding.string($0) }),
        !entry.tags.contains(where: { $0 == tag || $0.hasPrefix(tag + "/") })
    {
        return false
    }
    if let domain = query.domain.map({ folding.string($0) }),
        !entry.domains.contains(where: { $0 == domain || $0.hasSuffix("." + domain) })
    {
        return false
    }
    if let after = query.addedAfter.map(ImageOrigin.timestamp), !(entry.added.map { $0 >= after } ?? false) {
        return false
    }
    if let before = query.addedBefore.map(ImageOrigin.timestamp), !(entry.added.map { $0 < before } ?? false) {
        return false
    }
    if let orientation = query.orientation, entry.orientation != orientation { return false }
    if let format = query.format, entry.format != format.lowercased() { return false }
    if query.hasNote, !entry.hasNote { return false }
    if query.isAnimated, !entry.isAnimated { return false }
    return true
}

@Suite struct SearchEntriesTests {
    /// Random images with accents, Cyrillic, Korean, combining marks, line breaks, long and nested tags, and every
    /// kind of address: each entry read back from the compact form is the entry of its own image folded field by
    /// field, and so is an entry carried over unchanged into other entries.
    @Test func entriesReadBackAreTheImagesFoldedFieldByField() {
        var random = SplitMix64(seed: 29)
        let images = (0..<600).map { randomImage($0, &random) }
        var entries = SearchEntries()
        var folding = SearchFolding()
        for image in images { entries.append(image, folding: &folding) }
        #expect(entries.count == images.count)
        var carried = SearchEntries()
        for (position, image) in images.enumerated() {
            let expected = entryOfEachField(image)
            #expect(entries.entry(at: position) == expected, "\(image)")
            #expect(entries.id(at: position) == image.id)
            #expect(entries.textCount(at: position) == expected.text.count)
            #expect(entries.domains(at: position) == expected.domains)
            #expect(entries.format(at: position) == expected.format)
            #expect(SearchEntry(image, folding: &folding) == expected)
            if position % 3 == 0 { carried.append(position, of: entries) }
        }
        for position in carried.indices {
            #expect(carried.entry(at: position) == entries.entry(at: position * 3))
        }
        let found = (0..<images.count).map { entries.entry(at: $0) }
        #expect(
            Set(found.flatMap(\.domains)).isSuperset(of: [
                "example.org", "cdn.example.org", "яндекс.рф", "[::1]", "photos.example.org",
            ]))
        #expect(found.contains { $0.tags.contains(String(repeating: "ж", count: 90)) })
        #expect(found.contains { $0.text.count > 200 })
    }

    /// The tag, domain, date, orientation, format and note filters pass the entries they passed as strings,
    /// accented and Cyrillic names and a tag's nesting included.
    @Test func filtersPassWhatTheyPassedOnEntriesOfTheirOwn() {
        var random = SplitMix64(seed: 32)
        let images = (0..<400).map { randomImage($0, &random) }
        var entries = SearchEntries()
        var folding = SearchFolding()
        for image in images { entries.append(image, folding: &folding) }
        var queries: [SearchQuery] = []
        for tag in ["colour", "COLOUR/red", "colour/r", "зима", "Ete", "été/août", "a\nb", "people", ""] {
            queries.append(SearchQuery(tag: tag))
        }
        for domain in ["example.org", "Example.ORG", "ample.org", "рф", "яндекс.рф", "louvre.fr", "[::1]", "école.fr"] {
            queries.append(SearchQuery(domain: domain))
        }
        var other = SearchQuery()
        other.format = "PNG"
        queries.append(other)
        other.format = "jpeg xl"
        queries.append(other)
        other = SearchQuery(tag: "colour")
        other.hasNote = true
        other.orientation = .portrait
        queries.append(other)
        other = SearchQuery(domain: "example.com")
        other.addedAfter = try! Date("2026-05-01T00:00:00Z", strategy: .iso8601)
        queries.append(other)
        for (after, before) in [
            ("2026-05-01T00:00:00Z", nil), (nil, "2026-05-01T00:00:00Z"),
            ("2026-04-01T00:00:00Z", "2026-06-01T00:00:00Z"),
        ] {
            other = SearchQuery()
            other.addedAfter = after.map { try! Date($0, strategy: .iso8601) }
            other.addedBefore = before.map { try! Date($0, strategy: .iso8601) }
            queries.append(other)
        }
        var nonEmpty = 0
        for query in queries {
            var queryFolding = SearchFolding()
            let filters = FoldedFilters(query, folding: &queryFolding)
            let passing = entries.indices.filter { entries.passes(query, filters: filters, failed: [], at: $0) }
            let expected = images.indices.filter { passes(entryOfEachField(images[$0]), query) }
            #expect(passing == expected, "\(query)")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        // Most filters find some images, a few none ("ample.org" is not a domain of `example.org`).
        #expect(nonEmpty >= 15 && nonEmpty < queries.count)
    }

    /// A record keeps the time an image was added in 8 bytes, where a view into the image's text took 32: a record of
    /// a million images' index is 56 bytes, not 80.
    @Test func aRecordTakes56Bytes() {
        #expect(MemoryLayout<SearchEntries.Record>.stride <= 56)
    }

    /// A gallery built a piece at a time on workers is appended to in place, in room made once for all its images:
    /// as much as one built at once, where each piece had copied the entries before it and grown them by doubling.
    @MainActor @Test func aGalleryBuiltInPiecesTakesTheRoomOfOneBuiltAtOnce() throws {
        var random = SplitMix64(seed: 40)
        let images = (0..<250).map { randomImage($0, &random) }
        let library = GalleryLibrary(state: GalleryState(galleries: [Gallery(id: "g", name: "G", images: images)]))
        var pieces: [(work: @Sendable () -> Void, then: () -> Void)] = []
        var built: SearchIndex?
        SearchIndex.build(library, piece: 7, offThread: { pieces.append(($0, $1)) }, then: { built = $0 })
        while !pieces.isEmpty {
            let piece = pieces.removeFirst()
            piece.work()
            piece.then()
        }
        let entries = try #require(built).corpus.sections[0].entries
        var atOnce = SearchEntries()
        atOnce.reserveCapacity(
            adding: images.count, bytes: images.reduce(0) { $0 + SearchEntries.estimatedByteCount(of: $1) })
        var folding = SearchFolding()
        for image in images { atOnce.append(image, folding: &folding) }
        #expect(entries.count == images.count)
        // The text blocks aside (those of the last images are made once the gallery is built).
        #expect(
            entries.allocatedBytes - entries.textBlocks.allocatedBytes
                == atOnce.allocatedBytes - atOnce.textBlocks.allocatedBytes)
        for position in entries.indices { #expect(entries.entry(at: position) == atOnce.entry(at: position)) }
        // The room made is about what the entries take: their texts are mostly ASCII.
        let used = entries.indices.reduce(0) { $0 + entries.byteCount(at: $1) }
        #expect(entries.allocatedBytes - entries.textBlocks.allocatedBytes < used + images.count * 64 + used / 4)
    }

    /// Text that folds longer than it was (`և` is `եւ`) outgrows the room counted for it: the buffer doubles while the
    /// gallery is built, and gives back what is left unused at its end.
    @MainActor @Test func entriesThatOutgrowTheirRoomGiveBackWhatIsLeftUnused() throws {
        let images = (0..<300).map {
            var image = GalleryImage(id: ImageID("i\($0)"), url: "https://example.org/\($0).png", aspectRatio: 1)
            image.note = String(repeating: "և", count: 40)
            return image
        }
        let library = GalleryLibrary(state: GalleryState(galleries: [Gallery(id: "g", name: "G", images: images)]))
        var pieces: [(work: @Sendable () -> Void, then: () -> Void)] = []
        var built: SearchIndex?
        SearchIndex.build(library, piece: 50, offThread: { pieces.append(($0, $1)) }, then: { built = $0 })
        while !pieces.isEmpty {
            let piece = pieces.removeFirst()
            piece.work()
            piece.then()
        }
        let entries = try #require(built).corpus.sections[0].entries
        let counted = images.reduce(0) { $0 + SearchEntries.estimatedByteCount(of: $1) }
        let used = entries.indices.reduce(0) { $0 + entries.byteCount(at: $1) }
        #expect(used > counted + counted / 2)
        let records = images.count * MemoryLayout<SearchEntries.Record>.stride
        #expect(entries.allocatedBytes - entries.textBlocks.allocatedBytes - records < used + used / 8)
        for position in entries.indices {
            #expect(entries.entry(at: position) == entryOfEachField(images[position]))
        }
        // A gallery indexed again after a change gives it back too.
        library.setNote(String(repeating: "և", count: 80), of: ImageID("i0"))
        let again = try #require(built).corpus.sections[0].entries
        #expect(again.entry(at: 0).text.count > entries.entry(at: 0).text.count)
        let usedAgain = again.indices.reduce(0) { $0 + again.byteCount(at: $1) }
        #expect(again.allocatedBytes - again.textBlocks.allocatedBytes - records < usedAgain + usedAgain / 8)
    }
    /// Images arriving a few at a time, each put in at its position once all of its batch are in, make the entries of
    /// the whole list appended afresh, and the text blocks still lead a search to every entry holding its word.
    @Test func imagesPutInWhereTheyArriveMakeTheEntriesOfTheWholeList() {
        var random = SplitMix64(seed: 41)
        var images = (0..<200).map { randomImage($0, &random) }
        var entries = SearchEntries()
        var folding = SearchFolding()
        for image in images { entries.append(image, folding: &folding) }
        var number = 1_000
        for round in 0..<40 {
            let count = 1 + Int.random(in: 0..<4, using: &random)
            let positions = Array(
                Set((0..<count).map { _ in Int.random(in: 0..<images.count + count, using: &random) })
            )
            .sorted()
            let arriving = positions.map { position in
                number += 1
                return (position: position, image: randomImage(number, &random))
            }
            for (position, image) in arriving { images.insert(image, at: position) }
            let putIn = entries.insert(arriving)
            #expect(putIn, "round \(round)")
        }
        var afresh = SearchEntries()
        for image in images { afresh.append(image, folding: &folding) }
        #expect(entries.count == afresh.count)
        for position in entries.indices { #expect(entries.entry(at: position) == afresh.entry(at: position)) }
        for word in ["example", "café", "red", "org", "x"] {
            let runs = entries.runs(mayHoldingAll: [TextBlocks.Probe(Array(word.utf8))], within: entries.indices)
            for position in entries.indices
            where entries.entry(at: position).text.firstRange(of: Array(word.utf8)) != nil {
                #expect(runs.contains { $0.contains(position) }, "\(word) at \(position)")
            }
        }
        // Positions that do not fit the entries change nothing.
        let misplaced = entries.insert([(position: entries.count + 1, image: images[0])])
        #expect(!misplaced)
        #expect(entries.count == afresh.count)
    }
}
