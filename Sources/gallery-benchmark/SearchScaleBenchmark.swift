import Foundation
import GalleryCore

/// `gallery-benchmark search-scale [image count] [galleries]`: the search index over the search library of that many
/// images (default 1,000,000) in that many galleries (default 200): the memory it takes (resident bytes before and after
/// its build, an image), the time the index takes to follow each kind of edit on the GTK thread, and each keystroke of
/// typed words stopping at the first 1,000 results against searching through.
@MainActor func measureSearchScale(count: Int, galleries galleryCount: Int) {
    let library = makeSearchLibrary(
        count: count, galleries: galleryCount, ratios: (0..<count).map { 0.4 + Double($0 % 22) / 10 })
    let clock = ContinuousClock()
    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }
    // Resident bytes (the second field of statm, in pages): what the index's new allocations touch.
    func heap() -> Int {
        let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
    let edits: [(String, () -> Void)] = [
        ("a note", { library.setNote("changed", of: ImageID("s0")) }),
        ("a tag on 10 images", { library.addTags(["new"], to: (0..<10).map { ImageID("s\($0 * galleryCount)") }) }),
        (
            "a move of 10 images",
            { library.move((0..<10).map { ImageID("s\($0 * galleryCount)") }, in: "g0", toInsertionIndex: 100) }
        ),
        (
            "10 images to another gallery",
            { library.transfer((0..<10).map { ImageID("s\($0 * galleryCount)") }, from: "g0", to: "g1", copy: false) }
        ),
        ("a gallery renamed", { library.renameGallery("g1", to: "Renamed") }),
        ("a gallery created", { library.createGallery(named: "New") }),
    ]
    // The index's own time: from an observer that hears each change before it to one that hears it after.
    var heard = clock.now
    var indexTime = Duration.zero
    let first = library.observe { _ in heard = clock.now }
    let before = heap()
    var index: SearchIndex?
    let build = clock.measure { index = SearchIndex(library: library) }
    let heapBytes = Double(heap() - before)
    let corpus = index!.corpus
    let allocated = corpus.sections.reduce(0) { $0 + $1.entries.allocatedBytes }
    print(
        String(
            format:
                "search-scale: %d images in %d galleries: index built in %.0f ms, resident %.1f MiB, %.1f bytes an image "
                + "(records and buffers %.1f)",
            count, galleryCount, milliseconds(build), heapBytes / 1_048_576,
            heapBytes / Double(count), Double(allocated) / Double(count)))
    let last = library.observe { change in
        if case .progress = change { return }
        indexTime += clock.now - heard
    }
    for (name, edit) in edits {
        var samples: [Double] = []
        for _ in 0..<5 {
            indexTime = .zero
            edit()
            samples.append(milliseconds(indexTime))
            library.undo()
        }
        samples.sort()
        print(
            String(
                format: "search-scale: edit, %@: the index takes it up in %.3f ms (%.3f–%.3f)", name as NSString,
                samples[2], samples[0], samples[4]))
    }
    first.cancel()
    last.cancel()
    for word in ["crepuscule", "ёлка", "example.com", "zzz"] {
        for limit in [1_000, Int.max] {
            var samples: [Double] = []
            for _ in 0..<3 {
                var previous: SearchResults?
                for length in 1...word.count {
                    let query = SearchQuery(text: String(word.prefix(length)))
                    samples.append(
                        milliseconds(
                            clock.measure { previous = corpus.search(query, narrowing: previous, limit: limit) }))
                }
            }
            samples.sort()
            print(
                String(
                    format: "search-scale: each keystroke of “%@”, %@: %.2f ms median, %.2f ms max",
                    word as NSString, (limit == Int.max ? "searched through" : "the first 1,000") as NSString,
                    samples[samples.count / 2], samples.last!))
        }
    }
    let smart = SearchQuery(text: "nuit", tag: "colour/red")
    let whole = clock.measure { _ = corpus.search(smart) }
    let oneGallery = clock.measure { _ = corpus.count(smart, inSection: 0) }
    print(
        String(
            format:
                "search-scale: a smart gallery counted through: %.2f ms; again in the one gallery that changed: %.3f ms",
            milliseconds(whole), milliseconds(oneGallery)))
    index = nil
}
