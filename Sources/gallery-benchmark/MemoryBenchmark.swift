import CShim
import Foundation
import GalleryCore

/// `gallery-benchmark memory [image count] [runs]`: the heap (as malloc counts it) each part of the app keeps per image
/// of a library of that many images (default 100,000) in 200 galleries, with notes, tags, origins, real ids (random
/// UUIDs) and likenesses: the images themselves, the library over them (its galleries' cells, which gallery holds each
/// image), the search index, three smart galleries' counts as the sidebar keeps them, the overview's search (the search
/// provider: a query's first 100 results), and the near-duplicate index with a Find Duplicates look-up. Each part is
/// measured on top of those before it, every part made again in each run (default 3); median and range.
@MainActor func measureMemory(count: Int, runs: Int) {
    var samples: [String: [Double]] = [:]
    var names: [String] = []
    for _ in 0..<runs {
        var held: [Any] = []
        func measure(_ name: String, _ make: () -> Any) {
            let before = cshim_allocated_bytes()
            held.append(make())
            let bytes = Double(Int(cshim_allocated_bytes()) - Int(before)) / Double(count)
            if samples[name] == nil { names.append(name) }
            samples[name, default: []].append(bytes)
        }
        var state = GalleryState(galleries: [])
        measure("the images (the state read)") {
            state = memoryBenchmarkLibrary(count: count)
            return state
        }
        var library: GalleryLibrary?
        measure("the library (cells, each image's gallery)") {
            library = GalleryLibrary(state: state)
            return library!
        }
        var index: SearchIndex?
        measure("search: the index") {
            index = SearchIndex(library: library!)
            return index!
        }
        let corpus = index!.corpus
        measure("smart galleries: three counted, by gallery") {
            var withNote = SearchQuery()
            withNote.hasNote = true
            let queries = [SearchQuery(text: "photo", tag: "colour/red"), SearchQuery(text: "note"), withNote]
            return queries.map { query in
                Dictionary(
                    uniqueKeysWithValues: corpus.sections.indices.map {
                        (corpus.sections[$0].galleryID, corpus.count(query, inSection: $0))
                    })
            }
        }
        measure("search provider: the overview's first 100 results") {
            corpus.search(SearchQuery(text: "photo 1"), limit: 100)?.ids ?? []
        }
        measure("duplicates: the near-duplicate index and a look-up") {
            let likeness = LikenessIndex(library: library!) { work, then in
                work()
                then()
            }
            likeness.build()
            var found: [(id: ImageID, distance: Int)] = []
            likeness.nearDuplicates(of: state.galleries[0].images[0].likeness!) { found = $0 }
            precondition(!found.isEmpty)
            return likeness
        }
        withExtendedLifetime(held) {}
    }
    print("memory: \(count) images in 200 galleries, heap bytes an image (malloc), median (range) of \(runs) runs")
    for name in names {
        let sorted = samples[name]!.sorted()
        print(
            String(
                format: "memory: %@: %.1f (%.1f–%.1f)", name as NSString, sorted[sorted.count / 2], sorted[0],
                sorted.last!))
    }
}

/// `journalBenchmarkLibrary`'s images, each with a likeness (a random fingerprint and one of four palettes).
private func memoryBenchmarkLibrary(count: Int) -> GalleryState {
    var state = journalBenchmarkLibrary(count: count)
    var random = SplitMix64(seed: 49)
    let palettes = [0x8a5c_4a2b_3d1c_1e2f, 0x9c4b_5a3c_2e2d_1f1a, 0x7d6b_6c4a_3b2c_2a1b, 0xa35e_4c2d_1b3c_1a4d].map {
        Palette(rawValue: $0)!
    }
    for gallery in state.galleries.indices {
        for image in state.galleries[gallery].images.indices {
            state.galleries[gallery].images[image].likeness = Likeness(
                fingerprint: Fingerprint(rawValue: random.next()), palette: palettes[image % 4])
        }
    }
    return state
}
