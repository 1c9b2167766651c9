import Foundation
import Testing

@testable import GalleryCore

/// The text blocks that let a search skip entries, against a reading of every image: on random libraries, random
/// queries and random edits, the index finds exactly what looking at each image finds.
@MainActor @Suite struct SearchTextBlocksTests {
    private static let words = ["café", "Ёлка", "harbour", "nuit", "crème", "zima", "port", "rivière", "ab", "x"]
    private static let tags = ["colour/red", "colour/blue", "Зима", "été", "texture/wood"]
    private static let letters = Array("abcehimnoprtuxz1é.ё/ ")

    private static func image(_ number: Int, _ random: inout SplitMix64) -> GalleryImage {
        var image = GalleryImage(
            id: ImageID("i\(number)"), url: "https://site\(number % 7).example/\(random.next() % 100_000).png",
            aspectRatio: 1)
        if random.next() % 3 != 0 {
            image.note = (0..<Int(1 + random.next() % 3)).map { _ in words.randomElement(using: &random)! }
                .joined(separator: " ")
        }
        image.tags = Array(tags.shuffled(using: &random).prefix(Int(random.next() % 3)))
        return image
    }

    private static func library(_ random: inout SplitMix64, next number: inout Int) -> GalleryLibrary {
        let galleries = (0..<Int(1 + random.next() % 4)).map { galleryNumber in
            Gallery(
                id: "g\(galleryNumber)", name: "Gallery \(galleryNumber)",
                images: (0..<Int(random.next() % 300)).map { _ in
                    number += 1
                    return image(number, &random)
                })
        }
        return GalleryLibrary(state: GalleryState(galleries: galleries))
    }

    /// A query: a piece of a random image's text, or letters at random (found nowhere, often), one or two words.
    private static func query(_ library: GalleryLibrary, _ random: inout SplitMix64) -> String {
        let images = library.galleries.flatMap { library.cells(of: $0.id).compactMap(\.image) }
        func word() -> String {
            if random.next() % 2 == 0, let image = images.randomElement(using: &random) {
                let text = [image.url, image.note ?? "", image.tags.first ?? ""].randomElement(using: &random)!
                let characters = Array(text)
                guard !characters.isEmpty else { return "a" }
                let start = Int(random.next() % UInt64(characters.count))
                let length = 1 + Int(random.next() % 6)
                return String(characters[start..<min(characters.count, start + length)])
            }
            return String((0..<Int(1 + random.next() % 4)).map { _ in letters.randomElement(using: &random)! })
        }
        return random.next() % 3 == 0 ? word() + " " + word() : word()
    }

    /// What looking at each image of the library finds, gallery by gallery in sidebar order.
    /// Every image's entry, in sidebar and gallery order: what reading every image reads.
    private static func entries(_ library: GalleryLibrary) -> [(id: ImageID, entry: SearchEntry)] {
        var folding = SearchFolding()
        return library.galleries.flatMap { gallery in
            library.cells(of: gallery.id).compactMap(\.image).map { ($0.id, SearchEntry($0, folding: &folding)) }
        }
    }

    private static func read(_ entries: [(id: ImageID, entry: SearchEntry)], _ text: String) -> [ImageID] {
        var folding = SearchFolding()
        let words = SearchQuery(text: text).foldedWords(&folding).map(SearchEntry.Word.init)
        guard !words.isEmpty else { return [] }
        return entries.filter { $0.entry.containsAll(words) }.map(\.id)
    }

    private static func expectSame(
        _ corpus: SearchCorpus, _ library: GalleryLibrary, _ random: inout SplitMix64, _ what: String, queries: Int = 12
    ) throws {
        let entries = entries(library)
        for _ in 0..<queries {
            let text = query(library, &random)
            let expected = read(entries, text)
            let found = try #require(corpus.search(SearchQuery(text: text)))
            #expect(found.ids == expected, "\(what), “\(text)”")
            #expect(found.isComplete)
            let limit = 1 + Int(random.next() % 40)
            let first = try #require(corpus.search(SearchQuery(text: text), limit: limit))
            #expect(first.ids == Array(expected.prefix(limit)), "\(what), “\(text)”, limit \(limit)")
            let rest = try #require(corpus.search(SearchQuery(text: text), narrowing: first))
            #expect(rest.ids == expected, "\(what), “\(text)”, the rest after \(limit)")
            // A key typed on refines the first results on the GTK thread, reading on within its budget.
            let longer = text + String(letters.randomElement(using: &random)!)
            if let refined = corpus.refine(first, to: SearchQuery(text: longer), limit: limit) {
                #expect(refined.ids == Array(read(entries, longer).prefix(limit)), "\(what), “\(longer)” refined")
            }
            let counted = corpus.sections.indices.reduce(0) {
                $0 + corpus.count(SearchQuery(text: text), inSection: $1)
            }
            #expect(counted == expected.count, "\(what), “\(text)”, counted")
        }
    }

    @Test func theIndexFindsWhatReadingEveryImageFinds() throws {
        for seed in UInt64(1)...20 {
            var random = SplitMix64(seed: seed)
            var number = 0
            let library = Self.library(&random, next: &number)
            try Self.expectSame(SearchIndex(library: library).corpus, library, &random, "seed \(seed)")
        }
    }

    @Test func theIndexKeptUpEditByEditFindsWhatReadingEveryImageFinds() throws {
        for seed in UInt64(1)...12 {
            var random = SplitMix64(seed: seed)
            var number = 0
            let library = Self.library(&random, next: &number)
            let index = SearchIndex(library: library)
            for step in 0..<25 {
                Self.edit(library, &random, next: &number)
                try Self.expectSame(index.corpus, library, &random, "seed \(seed), step \(step)", queries: 4)
            }
        }
    }

    /// A word no image holds is found without reading any entry, and one that few hold reads their blocks only.
    @Test func aWordFewImagesHoldReadsOnlyTheirBlocks() {
        var random = SplitMix64(seed: 9)
        let images = (0..<1_000).map { number in
            var image = Self.image(number, &random)
            image.note = number == 700 ? "quokka" : "harbour"
            return image
        }
        let library = GalleryLibrary(state: GalleryState(galleries: [Gallery(id: "g", name: "G", images: images)]))
        let entries = SearchIndex(library: library).corpus.sections[0].entries
        #expect(entries.runs(mayHoldingAll: [TextBlocks.Probe(Array("zzz".utf8))], within: entries.indices).isEmpty)
        #expect(
            entries.runs(mayHoldingAll: [TextBlocks.Probe(Array("q".utf8))], within: entries.indices) == [640..<704])
        // Within part of the entries (a refinement reads on only as far as its budget goes).
        let q = [TextBlocks.Probe(Array("q".utf8))]
        #expect(entries.runs(mayHoldingAll: q, within: 0..<100).isEmpty)
        #expect(entries.runs(mayHoldingAll: q, within: 650..<680) == [650..<680])
        let quokka = entries.runs(mayHoldingAll: [TextBlocks.Probe(Array("okk".utf8))], within: entries.indices)
        #expect(quokka.reduce(0) { $0 + $1.count } <= 3 * TextBlocks.blockSize)
        #expect(quokka.contains { $0.contains(700) })
    }

    /// An edit makes again only the blocks of the entries it wrote or moved: the others, the last and smaller one
    /// included, are kept as they were.
    @Test func anEditMakesAgainOnlyTheBlocksOfWhatItChanged() {
        var random = SplitMix64(seed: 4)
        let images = (0..<650).map { Self.image($0, &random) }
        let library = GalleryLibrary(state: GalleryState(galleries: [Gallery(id: "g", name: "G", images: images)]))
        let index = SearchIndex(library: library)
        // The blocks, which hold their filters' storage: a block made again has new storage, one kept has its own
        // (the blocks held here keep the old storage from being reused).
        var held: [[TextBlocks.Block]] = []
        func filters() -> [Int] {
            let blocks = index.corpus.sections[0].entries.textBlocks.blocks
            held.append(blocks)
            return blocks.map { block in block.filter.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } }
        }
        let before = filters()
        #expect(before.count == 11)
        library.setNote("quokka", of: ImageID("i300"))
        let noted = filters()
        #expect(noted.indices.filter { noted[$0] != before[$0] } == [4])
        library.move([ImageID("i10")], in: "g", toInsertionIndex: 100)
        let moved = filters()
        #expect(moved.count == 11)
        #expect(moved.indices.filter { moved[$0] != noted[$0] } == [0, 1])
        // A likeness changes the entry but not its text: no block is made again.
        let location = library.location(of: ImageID("i500"))!
        let likeness = Likeness(fingerprint: Fingerprint(rawValue: 7), palette: Palette(measured: 9))
        library.recordLikenesses([(ImageID("i500"), location.galleryID, location.index, likeness)])
        #expect(filters() == moved)
        #expect(held.count == 4)
    }

    /// One random edit of the kinds a user or a download makes.
    private static func edit(_ library: GalleryLibrary, _ random: inout SplitMix64, next number: inout Int) {
        let galleries = library.galleries.map(\.id)
        guard let galleryID = galleries.randomElement(using: &random) else {
            library.createGallery(at: 0)
            return
        }
        let cells = library.cells(of: galleryID)
        let ids = cells.filter { !$0.isPlaceholder }.map(\.id)
        let some = Array(ids.shuffled(using: &random).prefix(1 + Int(random.next() % 80)))
        switch random.next() % 12 {
        case 0: if let id = some.first { library.setNote(words.randomElement(using: &random), of: id) }
        case 1: library.addTags([tags.randomElement(using: &random)!], to: some)
        case 2: library.renameTag(tags.randomElement(using: &random)!, to: "quokka")
        case 3: library.move(some, in: galleryID, toInsertionIndex: Int(random.next() % UInt64(cells.count + 1)))
        case 4: library.remove(Set(some), from: galleryID)
        case 5:
            library.transfer(
                some, from: galleryID, to: galleries.randomElement(using: &random)!, copy: random.next() % 2 == 0)
        case 6: library.createGallery(at: Int(random.next() % UInt64(galleries.count + 1)))
        case 7: if galleries.count > 1 { library.deleteGallery(galleryID) }
        case 8:
            for _ in 0..<Int(1 + random.next() % 70) {
                number += 1
                let at = Int(random.next() % UInt64(library.cells(of: galleryID).count + 1))
                if let placeholder = library.insertPlaceholder(in: galleryID, at: at, label: "coming") {
                    library.fulfillPlaceholder(placeholder, with: image(number, &random))
                }
            }
        case 9: library.undo()
        case 10: library.redo()
        default:
            if let placeholder = library.insertPlaceholder(in: galleryID, at: 0, label: "coming") {
                library.discardPlaceholder(placeholder)
            }
        }
    }
}
