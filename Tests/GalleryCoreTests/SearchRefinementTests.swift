import Foundation
import Testing

@testable import GalleryCore

private let words = [
    "crème", "brûlée", "Élysée", "ёлка", "Зима", "МОСКВА", "ёжик", "harbour", "kitchen", "wall", "abab", "aab",
    "crepuscule", "(.*)+", "café", "noël", "Straße", "площадь",
]
private let tags = ["colour/red", "colour/blue", "Зима", "été", "mood/calm", "people"]
private let sites = ["www.site1.example", "cdn.site1.example", "louvre.fr", "яндекс.рф", "blog.example.com"]

private func randomImage(_ id: String, _ random: inout SplitMix64) -> GalleryImage {
    let site = sites.randomElement(using: &random)!
    var image = GalleryImage(
        id: ImageID(id), url: "https://\(site)/\(id).\(["png", "jpg", "webp"].randomElement(using: &random)!)",
        aspectRatio: [0.7, 1, 1.5].randomElement(using: &random)!)
    if Bool.random(using: &random) {
        image.note = (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! }
            .joined(separator: " ")
    }
    image.tags = Array(tags.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)))
    image.origin = ImageOrigin(
        added: "2026-0\(Int.random(in: 1...9, using: &random))-10T10:00:00Z",
        page: "https://\(sites.randomElement(using: &random)!)/post")
    return image
}

@MainActor private func randomLibrary(_ random: inout SplitMix64) -> GalleryLibrary {
    GalleryLibrary(
        state: GalleryState(
            galleries: (0..<4).map { gallery in
                Gallery(
                    id: "g\(gallery)", name: "Gallery \(gallery)",
                    images: (0..<40).map { randomImage("g\(gallery)i\($0)", &random) })
            }))
}

/// Filters a sequence of keys keeps, chosen at random: often none.
private func randomFilters(_ random: inout SplitMix64) -> SearchQuery {
    var query = SearchQuery()
    switch Int.random(in: 0..<12, using: &random) {
    case 0: query.galleryID = "g\(Int.random(in: 0..<4, using: &random))"
    case 1: query.tag = ["colour", "зима", "mood/calm"].randomElement(using: &random)
    case 2: query.domain = ["site1.example", "louvre.fr", "example.com"].randomElement(using: &random)
    case 3: query.orientation = SearchEntry.Orientation.allCases.randomElement(using: &random)
    case 4: query.format = ["PNG", "webp"].randomElement(using: &random)
    case 5: query.hasNote = true
    case 6: query.addedAfter = try! Date("2026-05-01T00:00:00Z", strategy: .iso8601)
    case 7: query.failedToLoad = true
    default: break
    }
    return query
}

@MainActor @Suite struct SearchRefinementTests {
    /// Types random words a key at a time (sometimes a space and another word, sometimes a key erased, sometimes
    /// the library or the failed images changing between two keys), and checks at each key that the refinement on
    /// the GTK thread and the worker's narrowing search both give what a search of everything gives.
    @Test func refiningGivesWhatTheWorkerWouldInTheSameOrder() throws {
        var random = SplitMix64(seed: 32)
        let library = randomLibrary(&random)
        let index = SearchIndex(library: library)
        var failed: Set<ImageID> = [ImageID("g0i1"), ImageID("g2i5")]
        var refinedKeys = 0
        var refusedAfterAChange = 0
        for _ in 0..<300 {
            let filters = randomFilters(&random)
            var typed = ""
            var shown: SearchResults?
            let target = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                String(words.randomElement(using: &random)!.prefix(Int.random(in: 1...8, using: &random)))
            }.joined(separator: " ")
            for character in target {
                switch Int.random(in: 0..<20, using: &random) {
                case 0:
                    let id = ImageID(
                        "g\(Int.random(in: 0..<4, using: &random))i\(Int.random(in: 0..<40, using: &random))")
                    library.setNote(words.randomElement(using: &random)!, of: id)
                case 1:
                    library.addTags(
                        [tags.randomElement(using: &random)!],
                        to: [ImageID("g1i\(Int.random(in: 0..<40, using: &random))")])
                case 2:
                    failed.insert(ImageID("g3i\(Int.random(in: 0..<40, using: &random))"))
                case 3 where !typed.isEmpty:
                    typed.removeLast()
                default: break
                }
                typed.append(character)
                var query = filters
                query.text = typed
                let corpus = index.corpus
                let everything = try #require(corpus.search(query, failed: failed))
                let refined = shown.flatMap { corpus.refine($0, to: query) }
                if let refined {
                    #expect(refined == everything, "refining \(shown!.query.text) to \(typed)")
                    refinedKeys += 1
                } else if let shown, shown.generation != corpus.generation, query.narrows(shown.query) {
                    refusedAfterAChange += 1
                }
                if let shown, shown.generation != corpus.generation { #expect(refined == nil) }
                if query.failedToLoad { #expect(refined == nil) }
                let worker = try #require(corpus.search(query, failed: failed, narrowing: shown))
                #expect(worker == everything, "narrowing \(shown?.query.text ?? "") to \(typed)")
                shown = query.isEmpty ? nil : refined ?? worker
            }
        }
        // Most keys narrow the last: the refinement was tried and taken, and refused after the index changed.
        #expect(refinedKeys > 500)
        #expect(refusedAfterAChange > 20)
    }

    /// The background records likenesses and animations a few times a second while the user types: the results
    /// shown stay narrowable on the GTK thread, unless the query reads what was recorded.
    @Test func recordsMadeInTheBackgroundKeepResultsNarrowableUnlessTheQueryReadsThem() throws {
        var random = SplitMix64(seed: 48)
        let library = randomLibrary(&random)
        let index = SearchIndex(library: library)
        let words = try #require(index.corpus.search(SearchQuery(text: "harb")))
        var animated = SearchQuery(text: "harb")
        animated.isAnimated = true
        let moving = try #require(index.corpus.search(animated))
        let found = try #require(words.groups.first?.ids.first)
        let (galleryID, cellIndex) = try #require(library.location(of: found))
        let generation = index.corpus.generation
        library.recordAnimations([(found, galleryID, cellIndex, AnimationSummary(frameCount: 8, duration: 800))])
        library.recordLikenesses([
            (
                found, galleryID, cellIndex,
                Likeness(fingerprint: Fingerprint(rawValue: 7), palette: Palette(measured: 0x55 | 1))
            )
        ])
        let corpus = index.corpus
        #expect(corpus.generation == generation)
        #expect(corpus.recordsGeneration != words.recordsGeneration)
        let narrower = SearchQuery(text: "harbo")
        let refined = try #require(corpus.refine(words, to: narrower))
        #expect(refined == corpus.search(narrower))
        // The image that moves now is found by a query that looks for those: its old results are not narrowed.
        animated.text = "harbo"
        #expect(corpus.refine(moving, to: animated) == nil)
        let everything = try #require(corpus.search(animated))
        #expect(everything.ids.contains(found))
        #expect(corpus.search(animated, narrowing: moving) == everything)
        // A note is words: results found before it are not narrowed.
        #expect(library.setNote("harbour at night", of: found))
        #expect(index.corpus.generation != generation)
        #expect(index.corpus.refine(refined, to: SearchQuery(text: "harbou")) == nil)
    }

    @Test func resultsCountTheirTextAndOnlyThoseWithinTheBudgetAreRefined() throws {
        let long = String(repeating: "ab", count: SearchCorpus.refinementBudget / 8)
        let galleries = ["many": 6, "few": 2].map { id, count in
            Gallery(
                id: id, name: id,
                images: (0..<count).map {
                    var image = GalleryImage(
                        id: ImageID("\(id)\($0)"), url: "https://example.org/\($0).png", aspectRatio: 1)
                    image.note = "\(long) \(id)"
                    return image
                })
        }
        let index = SearchIndex(library: GalleryLibrary(state: GalleryState(galleries: galleries)))
        let corpus = index.corpus
        let all = try #require(corpus.search(SearchQuery(text: "ab")))
        let text = corpus.sections.reduce(0) { total, section in
            section.entries.indices.reduce(total) { $0 + section.entries.entry(at: $1).text.count }
        }
        #expect(all.textBytes == text)
        #expect(all.textBytes > SearchCorpus.refinementBudget)
        #expect(corpus.refine(all, to: SearchQuery(text: "aba")) == nil)
        let few = try #require(corpus.search(SearchQuery(text: "ab", galleryID: "few")))
        #expect(few.textBytes <= SearchCorpus.refinementBudget)
        let refined = try #require(corpus.refine(few, to: SearchQuery(text: "ab fe", galleryID: "few")))
        #expect(refined.ids == [ImageID("few0"), ImageID("few1")])
        #expect(corpus.refine(few, to: SearchQuery(text: "ab many", galleryID: "few"))?.ids == [])
        // Two words to look for read the text twice: over the budget. A word too long to be typed is the worker's.
        #expect(corpus.refine(few, to: SearchQuery(text: "ab fe w", galleryID: "few")) == nil)
        let longWord = String(repeating: "ab", count: SearchCorpus.refinementWordLimit / 2)
        #expect(corpus.refine(few, to: SearchQuery(text: longWord, galleryID: "few"))?.ids.count == 2)
        #expect(corpus.refine(few, to: SearchQuery(text: longWord + "a", galleryID: "few")) == nil)
        // Not narrowing: other filters, or a word erased.
        #expect(corpus.refine(few, to: SearchQuery(text: "ab fe")) == nil)
        #expect(corpus.refine(few, to: SearchQuery(text: "a", galleryID: "few")) == nil)
    }

    /// A word's first key searches everything: on the GTK thread when the blocks its words may be in give its first
    /// results within the budget (a letter in every text, a word in none), giving what the worker's search gives;
    /// not when reaching them reads more (two words each in every block, never in one text, over a large library).
    @Test func aFirstKeyIsSearchedWithinTheBudgetWhenTheBlocksSayItIsQuick() throws {
        func corpus(images: Int) -> SearchCorpus {
            let galleries = (0..<4).map { gallery in
                Gallery(
                    id: "g\(gallery)", name: "G\(gallery)",
                    images: (0..<images / 4).map { number in
                        var image = GalleryImage(
                            id: ImageID("g\(gallery)i\(number)"), url: "https://example.org/\(number).png",
                            aspectRatio: 1)
                        image.note = (number % 2 == 0 ? "harbour" : "kitchen") + String(repeating: " x", count: 40)
                        return image
                    })
            }
            return SearchIndex(library: GalleryLibrary(state: GalleryState(galleries: galleries))).corpus
        }
        let large = corpus(images: 40_000)
        let textBytes = large.sections.reduce(0) { total, section in
            section.entries.indices.reduce(total) { $0 + section.entries.textCount(at: $1) }
        }
        #expect(textBytes > SearchCorpus.refinementBudget)
        for text in ["h", "harb", "zzz", "kitchen x"] {
            let query = SearchQuery(text: text)
            let quick = try #require(large.searchWithinBudget(query, limit: 1_000), "\(text)")
            #expect(quick == large.search(query, limit: 1_000), "\(text)")
        }
        #expect(large.searchWithinBudget(SearchQuery(text: "harbour"), limit: 1_000)?.count == 1_000)
        #expect(large.searchWithinBudget(SearchQuery(text: "zzz"), limit: 1_000)?.isComplete == true)
        // Every block holds both words, no text does: the whole library would be read.
        #expect(large.searchWithinBudget(SearchQuery(text: "harbour kitchen"), limit: 1_000) == nil)
        let small = corpus(images: 400)
        let neither = SearchQuery(text: "harbour kitchen")
        let neitherFound = try #require(small.searchWithinBudget(neither, limit: 1_000))
        #expect(neitherFound == small.search(neither, limit: 1_000))
        // The worker's: a colour, the images that failed to load, a word too long to be typed.
        var colour = SearchQuery(text: "h")
        colour.colour = .named(.red)
        #expect(small.searchWithinBudget(colour, limit: 1_000) == nil)
        var failed = SearchQuery(text: "h")
        failed.failedToLoad = true
        #expect(small.searchWithinBudget(failed, limit: 1_000) == nil)
        let longWord = String(repeating: "ab", count: SearchCorpus.refinementWordLimit / 2) + "a"
        #expect(small.searchWithinBudget(SearchQuery(text: longWord), limit: 1_000) == nil)
    }

    /// Texts of two letters, where a word's first letter starts many failed matches, are read past the first few
    /// by the shift-or method: it finds what a plain comparison at every place finds.
    @Test func aWordIsFoundAsByComparingAtEveryPlaceInTextsOfItsOwnLetters() {
        var random = SplitMix64(seed: 7)
        var folding = SearchFolding()
        var entry = SearchEntry(GalleryImage(id: ImageID("x"), url: "a", aspectRatio: 1), folding: &folding)
        var foundByShiftOr = 0
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...80, using: &random)).map { _ in
                Bool.random(using: &random) || Bool.random(using: &random) ? UInt8(ascii: "a") : UInt8(ascii: "b")
            }
            let word = (0..<Int.random(in: 1...70, using: &random)).map { _ in
                Int.random(in: 0..<6, using: &random) == 0 ? UInt8(ascii: "b") : UInt8(ascii: "a")
            }
            entry.text = text
            let expected =
                word.count <= text.count
                && (0...(text.count - word.count)).contains { text[$0..<$0 + word.count].elementsEqual(word) }
            #expect(entry.containsAll([SearchEntry.Word(word)]) == expected, "\(word.count) in \(text)")
            let starts = text.indices.filter { text[$0] == word[0] }
            if expected, word.count <= 64, starts.count > 4,
                !(starts.prefix(4).contains { text[$0...].starts(with: word) })
            {
                foundByShiftOr += 1
            }
        }
        #expect(foundByShiftOr > 50)
    }
}
