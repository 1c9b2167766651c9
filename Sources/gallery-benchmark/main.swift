// Measures the core at gallery scale: `swift run -c release gallery-benchmark [image count] [flood size]`, or
// `gallery-benchmark refine` for the search's refinement alone, `gallery-benchmark index` for the search index's build
// in pieces and searches of it (to count under callgrind); `gallery-benchmark likeness-index [image count]` for the
// near-duplicate look-up, `gallery-benchmark likeness FILE…` for files' fingerprints and palettes,
// `gallery-benchmark duplicates [image count]` for Find Duplicates and More Like This,
// `gallery-benchmark colour-search [image count]` for searches by colour, `gallery-benchmark journal [image count |
// state file]` for an edit's cost in the library's journal against the whole state file's, `gallery-benchmark edit-cost
// [image count] [galleries] [edit] [repetitions] [index]` for an edit's cost on the GTK thread, `gallery-benchmark save
// [image count]` for an edit's bytes written and time to disk through the app's saver, `gallery-benchmark landing
// [gallery size] [arrivals] [per pass] [runs]` for images landing in a gallery, `gallery-benchmark memory [image count]
// [runs]` for the heap each part of the app keeps per image, `gallery-benchmark cell-pictures <thumbnail folder>
// [count] [runs]` for cells' pictures made from thumbnails.
// The numbers in the issues' closing notes come from this.
import Foundation
import GalleryCore

/// The refinement of a key on the GTK thread (`SearchCorpus.refine`), with shown results of nearly the budget's
/// text: photos' text (notes, tags, addresses) and a word's first letter found some ten times in each, then its
/// worst case, a text of one letter and a word of it (2 and 64 bytes) found nowhere: each byte a start compared.
@MainActor func measureRefinement() {
    let notes = ["chat", "café", "Ёлка", "crépuscule", "montagne", "кошка", "rivière", "tour", "nuit", "forêt"]
    var photos: [GalleryImage] = []
    var folding = SearchFolding()
    var text = 0
    for index in 0..<50_000 {
        var image = GalleryImage(
            id: ImageID("r\(index)"), url: "https://cdn\(index % 97).example.org/photos/\(index).jpg", aspectRatio: 1)
        image.note = "\(notes[index % 10]) \(notes[(index / 10) % 10]) numéro \(index)"
        image.tags = ["colour/\(["red", "blue", "green"][index % 3])", "set\(index % 50)"]
        image.origin = ImageOrigin(
            page: "https://blog\(index % 13).example.com/post/\(index)", altText: "photo \(index)")
        text += SearchEntry(image, folding: &folding).text.count
        guard text <= SearchCorpus.refinementBudget else { break }
        photos.append(image)
    }
    let letter = GalleryImage(id: ImageID("a"), url: String(repeating: "a", count: 1_000), aspectRatio: 1)
    let letters = (0..<SearchCorpus.refinementBudget / SearchEntry(letter, folding: &folding).text.count).map {
        var image = letter
        image.id = ImageID("a\($0)")
        return image
    }
    for (name, images, broad, narrow) in [
        ("photos' text, “o” then “oz”", photos, "o", "oz"), ("“a” repeated, then “ab”", letters, "a", "ab"),
        ("“a” repeated, then 63 “a” and “b”", letters, "a", String(repeating: "a", count: 63) + "b"),
    ] {
        let library = GalleryLibrary(state: GalleryState(galleries: [Gallery(id: "g", name: "G", images: images)]))
        let corpus = SearchIndex(library: library).corpus
        let shown = corpus.search(SearchQuery(text: broad))!
        precondition(shown.textBytes <= SearchCorpus.refinementBudget)
        var samples: [Duration] = []
        let clock = ContinuousClock()
        for _ in 0..<9 {
            samples.append(clock.measure { precondition(corpus.refine(shown, to: SearchQuery(text: narrow)) != nil) })
        }
        samples.sort()
        let median = samples[samples.count / 2]
        print(
            String(
                format: "%-58@ %12.1f µs, %d KiB", "search: refine \(name)" as NSString,
                Double(median.components.attoseconds) / 1e12 + Double(median.components.seconds) * 1e6,
                shown.textBytes / 1024))
    }
}

/// The search benchmark's library: `count` images in `galleryCount` galleries, each with a two-word note in French or
/// Russian, two tags, an alt text and a page address.
@MainActor func makeSearchLibrary(count: Int, galleries galleryCount: Int = 20, ratios: [Double]) -> GalleryLibrary {
    let noteWords = ["chat", "café", "Ёлка", "crépuscule", "montagne", "кошка", "rivière", "tour", "nuit", "forêt"]
    let galleries = (0..<galleryCount).map { galleryNumber in
        Gallery(
            id: "g\(galleryNumber)", name: "Gallery \(galleryNumber)",
            images: stride(from: galleryNumber, to: count, by: galleryCount).map { index in
                var image = GalleryImage(
                    id: ImageID("s\(index)"), url: "https://cdn\(index % 97).example.org/photos/\(index).jpg",
                    aspectRatio: ratios[index])
                image.note = "\(noteWords[index % 10]) \(noteWords[(index / 10) % 10]) numéro \(index)"
                image.tags = ["colour/\(["red", "blue", "green"][index % 3])", "set\(index % 50)"]
                image.origin = ImageOrigin(
                    added: "2026-11-26T22:40:00Z", page: "https://blog\(index % 13).example.com/post/\(index)",
                    altText: "photo \(index)")
                return image
            })
    }
    return GalleryLibrary(state: GalleryState(galleries: galleries))
}

/// The index of `library` built a piece at a time, as the app's workers build it, here on this thread.
@MainActor @inline(never) func buildIndexInPieces(_ library: GalleryLibrary) -> SearchIndex {
    var piece: (work: @Sendable () -> Void, then: () -> Void)?
    var index: SearchIndex?
    SearchIndex.build(library, offThread: { piece = ($0, $1) }, then: { index = $0 })
    while let next = piece {
        piece = nil
        next.work()
        next.then()
    }
    return index!
}

/// Words typed a letter at a time, each key narrowing the last results: what typing costs, apart from building the
/// index.
@inline(never) func typeWords(_ corpus: SearchCorpus) -> Int {
    var found = 0
    for word in ["crepuscule", "ёлка", "example.com", "zzz"] {
        var previous: SearchResults?
        for length in 1...word.count {
            previous = corpus.search(SearchQuery(text: String(word.prefix(length))), narrowing: previous)
            found += previous?.ids.count ?? 0
        }
    }
    return found
}

/// Searches of everything with a tag, a domain or a format filter.
@inline(never) func searchWithFilters(_ corpus: SearchCorpus) -> Int {
    var queries = [
        SearchQuery(text: "nuit", tag: "colour"), SearchQuery(tag: "Colour/Red"),
        SearchQuery(text: "o", domain: "example.com"), SearchQuery(domain: "cdn7.example.org"),
        SearchQuery(text: "chat"),
    ]
    queries[4].format = "JPEG"
    return queries.reduce(0) { $0 + (corpus.search($1)?.ids.count ?? 0) }
}

// `gallery-benchmark index`: the search library of 50,000 images indexed in pieces, then searched (to count each
// under callgrind: `--toggle-collect` the functions above).
if CommandLine.arguments.dropFirst().first == "index" {
    let library = makeSearchLibrary(count: 50_000, ratios: (0..<50_000).map { 0.4 + Double($0 % 22) / 10 })
    let index = buildIndexInPieces(library)
    print("search: index built, \(typeWords(index.corpus)) and \(searchWithFilters(index.corpus)) results")
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "likeness" {
    printLikenesses(of: Array(CommandLine.arguments.dropFirst(2)))
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "likeness-index" {
    measureLikenessIndex(count: CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 250_000)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "duplicates" {
    measureDuplicates(count: CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 250_000)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "colour-search" {
    measureColourSearch(count: CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 250_000)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "search-scale" {
    measureSearchScale(
        count: CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 1_000_000,
        galleries: CommandLine.arguments.dropFirst(3).first.flatMap(Int.init) ?? 200)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "edit-cost" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    measureEditCost(
        count: arguments.first.flatMap(Int.init) ?? 1_000_000,
        galleries: arguments.dropFirst().first.flatMap(Int.init) ?? 200,
        only: arguments.dropFirst(2).first, repetitions: arguments.dropFirst(3).first.flatMap(Int.init) ?? 9,
        withIndex: arguments.dropFirst(4).first == "index")
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "landing" {
    let arguments = Array(CommandLine.arguments.dropFirst(2)).map(Int.init)
    measureLanding(
        gallerySize: arguments.first.flatMap(\.self) ?? 50_000,
        arrivals: arguments.dropFirst().first.flatMap(\.self) ?? 2_000,
        perPass: arguments.dropFirst(2).first.flatMap(\.self) ?? 1,
        runs: arguments.dropFirst(3).first.flatMap(\.self) ?? 3)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "memory" {
    measureMemory(
        count: CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000,
        runs: CommandLine.arguments.dropFirst(3).first.flatMap(Int.init) ?? 3)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "journal" {
    measureJournal(argument: CommandLine.arguments.dropFirst(2).first)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "launch-reading", CommandLine.arguments.count > 2 {
    measureLaunchReading(
        home: CommandLine.arguments[2], runs: CommandLine.arguments.dropFirst(3).first.flatMap(Int.init) ?? 5)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "cell-pictures", CommandLine.arguments.count > 2 {
    let arguments = CommandLine.arguments
    measureCellPictures(
        folder: arguments[2], count: arguments.dropFirst(3).first.flatMap(Int.init) ?? 200,
        runs: arguments.dropFirst(4).first.flatMap(Int.init) ?? 5)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "save" {
    measureSave(count: CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 10_000)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "refine" {
    measureRefinement()
    exit(0)
}

let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10_000
var generator = SystemRandomNumberGenerator()
let ratios = (0..<count).map { _ in Double.random(in: 0.4...2.5, using: &generator) }
let images = ratios.enumerated().map { index, ratio in
    GalleryImage(
        id: ImageID("image-\(index)"), url: "https://images.example.org/photos/\(index).jpg", aspectRatio: ratio)
}

/// Runs `body` `repetitions` times and prints the median time per run.
func measure(_ name: String, repetitions: Int = 15, _ body: () -> Void) {
    var samples: [Duration] = []
    let clock = ContinuousClock()
    for _ in 0..<repetitions { samples.append(clock.measure(body)) }
    samples.sort()
    let median = samples[samples.count / 2]
    let microseconds = Double(median.components.seconds) * 1e6 + Double(median.components.attoseconds) / 1e12
    print(String(format: "%-58@ %12.1f µs", name as NSString, microseconds))
}

print("\(count) images")
var layout = JustifiedLayout(aspectRatios: ratios, width: 1200, targetRowHeight: 220, spacing: 8)
measure("layout: justified rows for every image (resize, zoom)") {
    layout = JustifiedLayout(aspectRatios: ratios, width: 1200, targetRowHeight: 220, spacing: 8)
}
measure("layout: cells in 1,000 viewports (scrolling)") {
    var total = 0
    for step in 0..<1000 {
        let y = layout.contentHeight * Double(step) / 1000
        total += layout.indices(intersecting: LayoutRect(x: 0, y: y, width: 1200, height: 800)).count
    }
    precondition(total > 0)
}
measure("layout: drop insertion index for 1,000 pointer positions") {
    var total = 0
    for step in 0..<1000 {
        total += layout.insertionIndex(
            x: Double(step % 1200), y: layout.contentHeight * Double(step) / 1000, radius: 220)
    }
    precondition(total > 0)
}

let state = GalleryState(galleries: [Gallery(name: "Gallery", images: images)])
let library = GalleryLibrary(state: GalleryState(galleries: state.galleries + [Gallery(name: "Other")]))
let shown = library.galleries[0].id
let other = library.galleries[1].id
let sparse = stride(from: 0, to: count, by: max(count / 100, 1)).map { images[$0].id }
measure("library: move 100 scattered images, then undo") {
    library.move(sparse, in: shown, toInsertionIndex: count / 2)
    library.undo()
}
measure("library: delete 100 scattered images, then undo") {
    library.remove(Set(sparse), from: shown)
    library.undo()
}
measure("library: move 100 scattered images to another gallery, then undo") {
    library.transfer(sparse, from: shown, to: other, copy: false)
    library.undo()
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-benchmark-\(getpid())")
let store = StateStore(fileURL: directory.appendingPathComponent("state.json"))
measure("state: atomic save (encode, write, fsync, rename)", repetitions: 7) {
    try! store.save(state)
}
let size = (try? FileManager.default.attributesOfItem(atPath: store.fileURL.path)[.size] as? Int) ?? 0
measure("state: load and decode (\(size / 1024) KiB)", repetitions: 7) {
    guard case .loaded = store.load() else { fatalError("state did not load") }
}
try? FileManager.default.removeItem(at: directory)

let firefoxHTML = Array(
    """
    <meta http-equiv="content-type" content="text/html; charset=utf-8"><img id="i" src="http://127.0.0.1:8765/cat.png" alt="cat">
    """.utf8)
let chromiumMozURL = Array("http://127.0.0.1:8765/cat.png\n".utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] })
measure("drop: parse a Firefox and a Chromium drop, 1,000 times") {
    var found = 0
    for _ in 0..<1000 {
        found += DropPayload.images(received: ["text/html": firefoxHTML, "text/x-moz-url": chromiumMozURL]).count
    }
    precondition(found > 0)
}

// Hostile drops: what a page's `dragstart` can hand over, parsed once each (issue 30); the second argument
// sets the flood's size.
let hostileCount = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 100_000
let hostileRepetitions = 3
let longURIList = Array(
    (0..<hostileCount).map { "https://images.example.org/flood/\($0).jpg\r\n" }.joined().utf8)
let oneImageHTML = Array(#"<img src="https://images.example.org/flood/0.jpg">"#.utf8)
let hugeSrcset = Array(
    ("<img src=\"https://images.example.org/a.jpg\" srcset=\""
        + (0..<hostileCount).map { "https://images.example.org/s/\($0).jpg \($0 + 1)w" }.joined(separator: ", ")
        + "\">").utf8)
let manyImagesHTML = Array(
    (0..<hostileCount).map { "<div><a href=\"/p/\($0)\"><img src=\"https://images.example.org/h/\($0).jpg\">" }
        .joined().utf8)
let unterminatedHTML = Array(("<img src=\"x.jpg\"" + String(repeating: "<a href='", count: hostileCount)).utf8)
measure("drop: \(hostileCount)-line URI list beside one <img>", repetitions: hostileRepetitions) {
    precondition(!DropPayload.images(received: ["text/uri-list": longURIList, "text/html": oneImageHTML]).isEmpty)
}
measure("drop: URI list and HTML, each \(hostileCount) images", repetitions: hostileRepetitions) {
    precondition(!DropPayload.images(received: ["text/uri-list": longURIList, "text/html": manyImagesHTML]).isEmpty)
}
measure("drop: one <img srcset> of \(hostileCount) candidates", repetitions: hostileRepetitions) {
    precondition(DropPayload.images(received: ["text/html": hugeSrcset]).count == 1)
}
measure("drop: \(hostileCount)-line URI list beside the srcset", repetitions: hostileRepetitions) {
    precondition(!DropPayload.images(received: ["text/uri-list": longURIList, "text/html": hugeSrcset]).isEmpty)
}
measure("drop: \(hostileCount) unterminated tags", repetitions: hostileRepetitions) {
    _ = DropPayload.images(received: ["text/html": unterminatedHTML])
}

// Search (issue 32): `count` images in 20 galleries with notes and tags, typed one key at a time.
let searchLibrary = makeSearchLibrary(count: count, ratios: ratios)
measure("search: change a note, then undo, without the index", repetitions: 7) {
    searchLibrary.setNote("changed", of: ImageID("s0"))
    searchLibrary.undo()
}
var searchIndex: SearchIndex?
measure("search: build the index of every gallery", repetitions: 5) {
    searchIndex = SearchIndex(library: searchLibrary)
}
var gtkThreadSamples: [Duration] = []
for _ in 0..<5 {
    var piece: (work: @Sendable () -> Void, then: () -> Void)?
    // The index before is freed first: freeing 50,000 entries is not the build's.
    searchIndex = nil
    let clock = ContinuousClock()
    let start = clock.now
    var onWorkers = Duration.zero
    SearchIndex.build(searchLibrary, offThread: { piece = ($0, $1) }, then: { searchIndex = $0 })
    while let next = piece {
        piece = nil
        let workStart = clock.now
        next.work()
        onWorkers += clock.now - workStart
        next.then()
    }
    gtkThreadSamples.append(clock.now - start - onWorkers)
}
gtkThreadSamples.sort()
print(
    String(
        format: "%-58@ %12.1f µs", "search: the GTK thread's part of a build on a worker" as NSString,
        Double(gtkThreadSamples[2].components.attoseconds) / 1e12
            + Double(gtkThreadSamples[2].components.seconds) * 1e6))
let corpus = searchIndex!.corpus
measureRefinement()
let indexBytes = corpus.sections.reduce(0) { $0 + $1.entries.allocatedBytes }
print(
    String(
        format: "%-58@ %12.1f MiB", "search: index size (records and their buffers, allocated)" as NSString,
        Double(indexBytes) / 1_048_576))
for word in ["crepuscule", "ёлка", "example.com", "zzz"] {
    var samples: [Duration] = []
    let clock = ContinuousClock()
    for _ in 0..<5 {
        var previous: SearchResults?
        for length in 1...word.count {
            let query = SearchQuery(text: String(word.prefix(length)))
            samples.append(clock.measure { previous = corpus.search(query, narrowing: previous) })
        }
    }
    samples.sort()
    func ms(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }
    print(
        String(
            format: "%-58@ %6.2f ms median, %6.2f ms max", "search: each keystroke of “\(word)”" as NSString,
            ms(samples[samples.count / 2]), ms(samples.last!)))
}
measure("search: change a note, then undo, with the index", repetitions: 7) {
    searchLibrary.setNote("changed", of: ImageID("s0"))
    searchLibrary.undo()
}
