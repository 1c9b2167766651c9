// Measures the core at gallery scale: `swift run -c release gallery-benchmark [image count] [flood size]`.
// The numbers in the issues' closing notes come from this.
import Foundation
import GalleryCore

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
