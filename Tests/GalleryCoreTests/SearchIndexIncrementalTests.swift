import Foundation
import Testing

@testable import GalleryCore

/// The index kept up to date edit by edit against one built afresh, and searches that stop at a limit against
/// searches through.
@MainActor @Suite struct SearchIndexIncrementalTests {
    private static let words = ["café", "Ёлка", "harbour", "nuit", "crème", "zima", "port", "rivière"]
    private static let tags = ["colour/red", "colour/blue", "Зима", "été", "texture/wood"]

    private static func image(_ number: Int, _ random: inout SplitMix64) -> GalleryImage {
        var image = GalleryImage(
            id: ImageID("i\(number)"), url: "https://site\(number % 7).example/\(number).png",
            aspectRatio: [0.7, 1, 1.5][Int(random.next() % 3)])
        if random.next() % 2 == 0 { image.note = words.randomElement(using: &random)! + " \(number)" }
        image.tags = Array(tags.shuffled(using: &random).prefix(Int(random.next() % 3)))
        return image
    }

    private static func library(_ random: inout SplitMix64) -> GalleryLibrary {
        var number = 0
        let galleries = (0..<3).map { galleryNumber in
            Gallery(
                id: "g\(galleryNumber)", name: "Gallery \(galleryNumber)",
                images: (0..<8).map { _ in
                    number += 1
                    return image(number, &random)
                })
        }
        return GalleryLibrary(state: GalleryState(galleries: galleries))
    }

    /// Every section's gallery, name and entries, read back.
    private static func contents(_ corpus: SearchCorpus) -> [[String]] {
        corpus.sections.map { section in
            [section.galleryID, section.name]
                + section.entries.indices.map { position in
                    let entry = section.entries.entry(at: position)
                    return "\(entry.id) \(String(decoding: entry.text, as: UTF8.self)) \(entry.tags) \(entry.domains) "
                        + "\(entry.orientation) \(entry.format ?? "-") \(entry.hasNote) \(entry.added ?? "-")"
                }
        }
    }

    /// One random edit of the kinds a user, a download or the app's surveyors make.
    private static func edit(_ library: GalleryLibrary, _ random: inout SplitMix64, next number: inout Int) {
        let galleries = library.galleries.map(\.id)
        let galleryID = galleries.randomElement(using: &random)!
        let cells = library.cells(of: galleryID)
        let ids = cells.filter { !$0.isPlaceholder }.map(\.id)
        let some = Array(ids.shuffled(using: &random).prefix(1 + Int(random.next() % 3)))
        switch random.next() % 17 {
        case 0: if let id = some.first { library.setNote(words.randomElement(using: &random), of: id) }
        case 1: library.addTags([tags.randomElement(using: &random)!], to: some)
        case 2: library.removeTags([tags.randomElement(using: &random)!], from: some)
        case 3: library.renameTag(tags.randomElement(using: &random)!, to: "renamed")
        case 4: library.move(some, in: galleryID, toInsertionIndex: Int(random.next() % UInt64(cells.count + 1)))
        case 5: library.remove(Set(some), from: galleryID)
        case 6:
            library.transfer(
                some, from: galleryID, to: galleries.randomElement(using: &random)!, copy: random.next() % 2 == 0)
        case 7: library.createGallery(at: Int(random.next() % UInt64(galleries.count + 1)))
        case 8: library.deleteGallery(galleryID)
        case 9: library.renameGallery(galleryID, to: "Renamed \(random.next() % 5)")
        case 10: library.moveGallery(galleryID, to: Int(random.next() % UInt64(galleries.count)))
        case 11:
            number += 1
            if let placeholder = library.insertPlaceholder(in: galleryID, label: "coming") {
                library.fulfillPlaceholder(placeholder, with: image(number, &random))
            }
        case 12:
            if let placeholder = library.insertPlaceholder(in: galleryID, at: 0, label: "coming"),
                random.next() % 2 == 0
            {
                library.discardPlaceholder(placeholder)
            }
        case 13: if let id = some.first { library.correctAspectRatio(of: id, to: [0.5, 1, 2][Int(random.next() % 3)]) }
        case 14:
            library.recordLikenesses(
                some.compactMap { id in
                    library.location(of: id).map { location in
                        (
                            id, location.galleryID, location.index,
                            Likeness(
                                fingerprint: Fingerprint(rawValue: random.next()),
                                palette: Palette(measured: random.next() | 1))
                        )
                    }
                })
        case 15: library.undo()
        default: library.redo()
        }
    }

    @Test func anIndexKeptUpEditByEditIsTheIndexBuiltAfresh() {
        for seed in UInt64(1)...12 {
            var random = SplitMix64(seed: seed)
            let library = Self.library(&random)
            let index = SearchIndex(library: library)
            var number = 1_000
            for step in 0..<60 {
                Self.edit(library, &random, next: &number)
                #expect(
                    Self.contents(index.corpus) == Self.contents(SearchIndex(library: library).corpus),
                    "seed \(seed), step \(step)")
            }
        }
    }

    /// An edit's entries are written where the buffer ends and the others stay where they are: a note or a tag writes
    /// one entry, a move writes none, whatever the gallery's size; the bytes left behind are given back once they are
    /// an eighth of the buffer.
    @Test func anEditWritesOnlyTheEntriesOfTheImagesItChanges() {
        var random = SplitMix64(seed: 5)
        let images = (0..<300).map { Self.image($0, &random) }
        let library = GalleryLibrary(state: GalleryState(galleries: [Gallery(id: "g", name: "G", images: images)]))
        let index = SearchIndex(library: library)
        var entries: SearchEntries { index.corpus.sections[0].entries }
        func starts() -> [ImageID: Int] {
            Dictionary(uniqueKeysWithValues: entries.indices.map { (entries.id(at: $0), entries.start(at: $0)) })
        }
        let before = starts()
        let length = entries.byteCount
        library.setNote("crème 150", of: ImageID("i150"))
        library.addTags(["été"], to: [ImageID("i20")])
        library.move([ImageID("i250")], in: "g", toInsertionIndex: 10)
        var after = starts()
        #expect(after.removeValue(forKey: ImageID("i150")) == length)
        let noted = entries.indices.first { entries.id(at: $0) == ImageID("i150") } ?? 0
        #expect(after.removeValue(forKey: ImageID("i20")) == length + entries.byteCount(at: noted))
        #expect(after == before.filter { $0.key != ImageID("i150") && $0.key != ImageID("i20") })
        #expect(entries.id(at: 10) == ImageID("i250"))
        for _ in 0..<400 { library.setNote("crème \(random.next() % 1_000)", of: ImageID("i150")) }
        let used = entries.indices.reduce(0) { $0 + entries.byteCount(at: $1) }
        #expect(entries.byteCount <= used + used / 8 + 64)
        #expect(Self.contents(index.corpus) == Self.contents(SearchIndex(library: library).corpus))
    }

    /// What the background measures of images (whether they move, their likenesses) is set in their records alone:
    /// no entry is written again (written again, they would stand past the buffer's end: fewer than an eighth of the
    /// entries, which does not compact it), and moving images and colours are found as in an index built afresh.
    @Test func measuresRecordedWriteNoEntry() throws {
        var random = SplitMix64(seed: 9)
        let images = (0..<300).map { Self.image($0, &random) }
        let library = GalleryLibrary(state: GalleryState(galleries: [Gallery(id: "g", name: "G", images: images)]))
        let index = SearchIndex(library: library)
        var entries: SearchEntries { index.corpus.sections[0].entries }
        let starts = entries.indices.map { entries.start(at: $0) }
        let length = entries.byteCount
        library.recordAnimations(
            stride(from: 0, to: 30, by: 3).map { number in
                (
                    ImageID("i\(number)"), "g", number,
                    number % 2 == 0 ? AnimationSummary(frameCount: 3, duration: 300) : .still
                )
            })
        library.recordLikenesses(
            stride(from: 1, to: 40, by: 4).map { number in
                (
                    ImageID("i\(number)"), "g", number,
                    Likeness(
                        fingerprint: Fingerprint(rawValue: random.next()), palette: Palette(measured: random.next()))
                )
            })
        #expect(entries.byteCount == length)
        #expect(entries.indices.map { entries.start(at: $0) } == starts)
        let fresh = SearchIndex(library: library).corpus
        var moving = SearchQuery()
        moving.isAnimated = true
        #expect(try #require(index.corpus.search(moving)).count == 5)
        #expect(index.corpus.search(moving)?.ids == fresh.search(moving)?.ids)
        for colour in NamedColour.allCases {
            var query = SearchQuery()
            query.colour = .named(colour)
            #expect(index.corpus.search(query)?.ids == fresh.search(query)?.ids, "\(colour)")
        }
    }

    /// Drops landing as downloads end: placeholders put in anywhere, their images arriving a few at a time in any
    /// order, some failing; the index kept up arrival by arrival is the one built afresh.
    @Test func anIndexKeptUpAsImagesLandIsTheIndexBuiltAfresh() {
        for seed in UInt64(1)...12 {
            var random = SplitMix64(seed: seed)
            let library = Self.library(&random)
            let index = SearchIndex(library: library)
            var number = 1_000
            var waiting: [ImageID] = []
            for step in 0..<40 {
                let galleryID = library.galleries.randomElement(using: &random)!.id
                if random.next() % 3 == 0 {
                    let at = Int(random.next() % UInt64(library.cells(of: galleryID).count + 1))
                    let labels = (0..<1 + Int(random.next() % 4)).map { "coming \($0)" }
                    waiting += library.insertPlaceholders(in: galleryID, at: at, labels: labels) ?? []
                } else if random.next() % 5 == 0, let failed = waiting.popLast() {
                    library.discardPlaceholder(failed)
                } else {
                    waiting.shuffle(using: &random)
                    let arriving = waiting.prefix(1 + Int(random.next() % 4))
                    waiting.removeFirst(arriving.count)
                    library.fulfillPlaceholders(
                        arriving.map { placeholder in
                            number += 1
                            return (placeholder, Self.image(number, &random))
                        })
                }
                #expect(
                    Self.contents(index.corpus) == Self.contents(SearchIndex(library: library).corpus),
                    "seed \(seed), step \(step)")
            }
        }
    }

    @Test func searchesThatStopAtALimitResumeToWhatASearchThroughFinds() throws {
        var random = SplitMix64(seed: 7)
        let library = Self.library(&random)
        let corpus = SearchIndex(library: library).corpus
        for text in ["a", "e", "site", "ca", "café", "example", "zzz", "r"] {
            let whole = try #require(corpus.search(SearchQuery(text: text)))
            #expect(whole.isComplete)
            for limit in [1, 2, 3, 5, 8, 13, 100] {
                let first = try #require(corpus.search(SearchQuery(text: text), limit: limit))
                #expect(first.ids == Array(whole.ids.prefix(limit)))
                #expect(first.isComplete || first.count == limit)
                // Narrowed with the same query, results that stopped find the rest.
                let rest = try #require(corpus.search(SearchQuery(text: text), narrowing: first))
                #expect(rest.ids == whole.ids)
                #expect(rest.isComplete)
                // Narrowed with a longer query, a limit at a time, they find what a search through for it finds.
                for longer in [text + "e", text + " 1", text + "r"] {
                    let through = try #require(corpus.search(SearchQuery(text: longer)))
                    var step = try #require(corpus.search(SearchQuery(text: longer), narrowing: first, limit: limit))
                    #expect(step.ids == Array(through.ids.prefix(limit)))
                    // Each step asks for `limit` more than it holds: the first `step.count` are those it has.
                    while !step.isComplete {
                        step = try #require(
                            corpus.search(SearchQuery(text: longer), narrowing: step, limit: step.count + limit))
                    }
                    #expect(step.ids == through.ids)
                    if let refined = corpus.refine(first, to: SearchQuery(text: longer), limit: limit) {
                        #expect(refined.ids == Array(through.ids.prefix(limit)))
                    }
                }
            }
        }
    }

    @Test func aSmartGallerysCountInEachGalleryAddsUpToItsMembers() throws {
        var random = SplitMix64(seed: 3)
        let library = Self.library(&random)
        let corpus = SearchIndex(library: library).corpus
        for query in [SearchQuery(text: "a"), SearchQuery(tag: "colour"), SearchQuery(text: "1", galleryID: "g1")] {
            let counts = corpus.sections.indices.map { corpus.count(query, inSection: $0) }
            #expect(counts.reduce(0, +) == SmartGallery(name: "s", query: query).members(in: corpus).count)
        }
    }
}
