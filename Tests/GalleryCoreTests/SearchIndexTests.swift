import Foundation
import Testing

@testable import GalleryCore

private func image(
    _ name: String, url: String? = nil, note: String? = nil, tags: [String] = [], origin: ImageOrigin? = nil,
    ratio: Double = 1.5
) -> GalleryImage {
    var image = GalleryImage(id: ImageID(name), url: url ?? "https://example.org/\(name).png", aspectRatio: ratio)
    image.note = note
    image.tags = tags
    image.origin = origin
    return image
}

/// Two galleries: "Paris" with notes in French and tags, "Москва" with Russian text and other domains.
@MainActor private func makeLibrary() -> GalleryLibrary {
    GalleryLibrary(
        state: GalleryState(galleries: [
            Gallery(
                id: "paris", name: "Paris",
                images: [
                    image("p0", note: "Café crème à l’Élysée", tags: ["colour/red", "ville"]),
                    image("p1", url: "https://www.louvre.fr/media/joconde.jpg", tags: ["colour/blue"], ratio: 0.7),
                    image(
                        "p2",
                        origin: ImageOrigin(
                            added: "2026-03-01T10:00:00Z", link: "https://cdn.photos.net/full/42.jpg",
                            page: "https://blog.example.com/post", altText: "Tour Eiffel au crépuscule",
                            title: "(.*)+ regex? [chars]")),
                ]),
            Gallery(
                id: "moscow", name: "Москва",
                images: [
                    image("m0", note: "Ёлка на Красной площади", tags: ["Зима"]),
                    image("m1", url: "https://yandex.ru/images/kreml.webp", note: "ЁЖИК в тумане", ratio: 1),
                ]),
        ]))
}

@MainActor private func found(_ index: SearchIndex, _ query: SearchQuery) -> [String] {
    index.corpus.search(query)!.ids.map(\.rawValue)
}

@MainActor private func found(_ index: SearchIndex, _ text: String) -> [String] {
    found(index, SearchQuery(text: text))
}

@MainActor @Suite struct SearchIndexTests {
    @Test func accentsAndCaseFoldBothWays() {
        let library = makeLibrary()
        let index = SearchIndex(library: library)
        #expect(found(index, "cafe creme") == ["p0"])
        #expect(found(index, "CAFÉ ÉLYSÉE") == ["p0"])
        #expect(found(index, "elysee") == ["p0"])
        #expect(found(index, "crepuscule") == ["p2"])
    }

    @Test func cyrillicCaseAndYoFold() {
        let index = SearchIndex(library: makeLibrary())
        #expect(found(index, "елка") == ["m0"])
        #expect(found(index, "КРАСНОЙ") == ["m0"])
        #expect(found(index, "ёжик") == ["m1"])
        #expect(found(index, "ежик туман") == ["m1"])
        #expect(found(index, "зима") == ["m0"])
    }

    @Test func aWordIsFoundAfterPartialMatchesAndAtTheVeryEnd() {
        let library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(
                    id: "g", name: "G",
                    images: [image("a", note: "ababac"), image("b", note: "abab"), image("c", note: "q")])
            ]))
        let index = SearchIndex(library: library)
        #expect(found(index, "abac") == ["a"])
        #expect(found(index, "babac") == ["a"])
        #expect(found(index, "abab") == ["a", "b"])
        #expect(found(index, "ababab").isEmpty)
        #expect(found(index, "q") == ["c"])
        #expect(found(index, "qq").isEmpty)
    }

    /// An entry holds an image's label only when its address does not: a label read from the address as it is
    /// (`Holiday-Photo.JPG`) is found in the address, one decoded from it (`café.png`) in its own line.
    @Test func labelsAreFoundWhetherOrNotTheAddressHoldsThem() {
        let plain = image("plain", url: "https://example.org/photos/Holiday-Photo.JPG")
        let decoded = image("decoded", url: "https://example.org/caf%C3%A9.png")
        var folding = SearchFolding()
        #expect(
            SearchEntry(plain, folding: &folding).text == Array("https://example.org/photos/holiday-photo.jpg\n".utf8))
        #expect(
            SearchEntry(decoded, folding: &folding).text == Array("cafe.png\nhttps://example.org/caf%c3%a9.png\n".utf8))
        let library = GalleryLibrary(
            state: GalleryState(galleries: [Gallery(id: "g", name: "G", images: [plain, decoded])]))
        let corpus = SearchIndex(library: library).corpus
        #expect(corpus.search(SearchQuery(text: "holiday-photo.jpg"))?.ids == [plain.id])
        #expect(corpus.search(SearchQuery(text: "CAFÉ.PNG"))?.ids == [decoded.id])
        #expect(corpus.search(SearchQuery(text: ".png"))?.ids == [decoded.id])
    }

    @Test func wordsMustAllMatchInAnyField() {
        let index = SearchIndex(library: makeLibrary())
        #expect(found(index, "cafe red") == ["p0"])
        #expect(found(index, "cafe blue").isEmpty)
        #expect(found(index, "  ").isEmpty)
        #expect(found(index, "").isEmpty)
    }

    @Test func addressesAndDomainsMatch() {
        let index = SearchIndex(library: makeLibrary())
        #expect(found(index, "louvre.fr") == ["p1"])
        #expect(found(index, "joconde") == ["p1"])
        #expect(found(index, "photos.net") == ["p2"])
        #expect(found(index, "blog.example") == ["p2"])
        #expect(found(index, "yandex") == ["m1"])
        var byDomain = SearchQuery()
        byDomain.domain = "example.com"
        #expect(found(index, byDomain) == ["p2"])
        byDomain.domain = "louvre.fr"
        #expect(found(index, byDomain) == ["p1"])
        byDomain.domain = "re.fr"
        #expect(found(index, byDomain).isEmpty)
    }

    @Test func domainsAreReadFromEveryKindOfAddress() {
        func domain(of address: String) -> String? {
            SearchEntry.hostRange(of: address).map { String(decoding: Array(address.utf8)[$0], as: UTF8.self) }
        }
        #expect(domain(of: "https://www.Example.org/a.png") == "Example.org")
        #expect(domain(of: "http://user:pw@cdn.example.org:8080/a?b#c") == "cdn.example.org")
        #expect(domain(of: "http://[::1]:8080/a.png") == "[::1]")
        #expect(domain(of: "https://example.org") == "example.org")
        #expect(domain(of: "data:image/png;base64,AAAA") == nil)
        #expect(domain(of: "file:///home/me/a.png") == nil)
        #expect(SearchEntry.fileExtension(of: "https://a.org/b.c/photo.JPG?x=1.png#y") == "JPG")
        #expect(SearchEntry.fileExtension(of: "https://a.org/b.c/photo") == nil)
    }

    @Test func tagsMatchEachLevelAndNestInTheFilter() {
        let index = SearchIndex(library: makeLibrary())
        #expect(found(index, "colour") == ["p0", "p1"])
        #expect(found(index, "red") == ["p0"])
        #expect(found(index, "colour/blue") == ["p1"])
        #expect(found(index, SearchQuery(tag: "colour")) == ["p0", "p1"])
        #expect(found(index, SearchQuery(tag: "colour/red")) == ["p0"])
        #expect(found(index, SearchQuery(tag: "col")).isEmpty)
        #expect(found(index, SearchQuery(tag: "зима")) == ["m0"])
    }

    @Test func regularExpressionCharactersAreText() {
        let index = SearchIndex(library: makeLibrary())
        #expect(found(index, "(.*)+") == ["p2"])
        #expect(found(index, "[chars]") == ["p2"])
        #expect(found(index, ".*").isEmpty == false)
        #expect(found(index, "^p0$").isEmpty)
        #expect(found(index, String(repeating: "é", count: 10_000)).isEmpty)
    }

    @Test func resultsComeGroupedInSidebarAndGalleryOrder() throws {
        let library = makeLibrary()
        let index = SearchIndex(library: library)
        let results = try #require(index.corpus.search(SearchQuery(text: "a")))
        #expect(results.groups.map(\.name) == ["Paris", "Москва"])
        #expect(results.groups[0].ids.map(\.rawValue) == ["p0", "p1", "p2"])
        library.moveGallery("moscow", to: 0)
        #expect(index.corpus.search(SearchQuery(text: "a"))!.groups.map(\.galleryID) == ["moscow", "paris"])
        #expect(found(index, SearchQuery(text: "a", galleryID: "moscow")) == ["m0", "m1"])
    }

    @Test func filtersNarrowTheText() {
        let index = SearchIndex(library: makeLibrary())
        var query = SearchQuery()
        query.hasNote = true
        #expect(found(index, query) == ["p0", "m0", "m1"])
        query = SearchQuery()
        query.orientation = .portrait
        #expect(found(index, query) == ["p1"])
        query.orientation = .square
        #expect(found(index, query) == ["m1"])
        query = SearchQuery()
        query.format = "WebP"
        #expect(found(index, query) == ["m1"])
        query = SearchQuery()
        query.addedAfter = try! Date("2026-01-01T00:00:00Z", strategy: .iso8601)
        #expect(found(index, query) == ["p2"])
        query.addedAfter = nil
        query.addedBefore = try! Date("2026-01-01T00:00:00Z", strategy: .iso8601)
        #expect(found(index, query).isEmpty)
        query = SearchQuery()
        query.failedToLoad = true
        #expect(index.corpus.search(query, failed: [ImageID("m1")])!.ids == [ImageID("m1")])
    }

    @Test func indexFollowsAddMoveDeleteNoteAndUndo() {
        let library = makeLibrary()
        let index = SearchIndex(library: library)
        let generation = index.corpus.generation
        let placeholder = library.insertPlaceholder(in: "moscow", label: "x")!
        #expect(found(index, "kangourou").isEmpty)
        library.fulfillPlaceholder(placeholder, with: image("new", note: "Kangourou roux"))
        #expect(found(index, "kangourou") == [placeholder.rawValue])
        library.transfer([placeholder], from: "moscow", to: "paris", copy: false)
        #expect(index.corpus.search(SearchQuery(text: "kangourou"))!.groups.map(\.galleryID) == ["paris"])
        library.undo()
        #expect(index.corpus.search(SearchQuery(text: "kangourou"))!.groups.map(\.galleryID) == ["moscow"])
        library.remove([placeholder], from: "moscow")
        #expect(found(index, "kangourou").isEmpty)
        library.undo()
        #expect(found(index, "kangourou") == [placeholder.rawValue])
        library.setNote("Wallaby", of: placeholder)
        #expect(found(index, "kangourou").isEmpty)
        #expect(found(index, "wallaby") == [placeholder.rawValue])
        library.deleteGallery("moscow")
        #expect(found(index, "wallaby").isEmpty)
        #expect(found(index, "ёлка").isEmpty)
        library.undo()
        #expect(found(index, "wallaby") == [placeholder.rawValue])
        library.renameGallery("moscow", to: "Moscou")
        #expect(index.corpus.search(SearchQuery(text: "wallaby"))!.groups.map(\.name) == ["Moscou"])
        #expect(index.corpus.generation > generation + 5)
    }

    @Test func anIndexBuiltOffThreadTakesUpTheChangesMadeMeanwhile() throws {
        let library = makeLibrary()
        var pieces: [(work: @Sendable () -> Void, then: () -> Void)] = []
        var built: SearchIndex?
        SearchIndex.build(library, piece: 1, offThread: { pieces.append(($0, $1)) }, then: { built = $0 })
        library.setNote("Wallaby", of: ImageID("p1"))
        // One piece at a time, each asked for when the one before is handed back.
        let first = try #require(pieces.first)
        pieces.removeFirst()
        first.work()
        first.then()
        library.remove([ImageID("m0")], from: "moscow")
        while !pieces.isEmpty {
            #expect(built == nil)
            let piece = pieces.removeFirst()
            piece.work()
            piece.then()
            #expect(pieces.count <= 1)
        }
        let index = try #require(built)
        #expect(found(index, "wallaby") == ["p1"])
        #expect(found(index, "ёлка").isEmpty)
        #expect(found(index, "a") == ["p0", "p1", "p2", "m1"])
        library.createGallery(named: "Empty")
        library.setNote("Koala", of: ImageID("m1"))
        #expect(found(index, "koala") == ["m1"])
        #expect(index.corpus.sections.map(\.name) == ["Paris", "Москва", "Empty"])
    }

    @Test func narrowingSearchesOnlyThePreviousResultsOfTheSameGeneration() throws {
        let library = makeLibrary()
        let index = SearchIndex(library: library)
        let broad = try #require(index.corpus.search(SearchQuery(text: "caf")))
        #expect(SearchQuery(text: "cafe").narrows(broad.query))
        #expect(!SearchQuery(text: "tour").narrows(broad.query))
        #expect(!SearchQuery(text: "cafe", galleryID: "paris").narrows(broad.query))
        #expect(index.corpus.search(SearchQuery(text: "cafe"), narrowing: broad)!.ids == [ImageID("p0")])
        library.setNote("café noir", of: ImageID("m0"))
        // A new generation: the earlier results do not limit the search any more.
        #expect(index.corpus.search(SearchQuery(text: "cafe"), narrowing: broad)!.ids.count == 2)
        #expect(index.corpus.search(SearchQuery(text: "cafe"), isCancelled: { true }) == nil)
    }
}
