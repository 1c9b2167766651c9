import Foundation
import GalleryCore

/// `gallery-benchmark colour-search [image count]`: a colour search over the search library of that many images
/// (default 250,000), each with a palette of four random colours: each named colour and a picked one, searched alone
/// and with a word; then over a library of as many images with the four palettes `generated_library.py` gives
/// (`likeness_painted.py`'s), where most named colours match no image, and a tenth of a thousandth of them red (a
/// colour that matches few): each named colour alone. Seven times each; the median and range of each, and how many
/// images each found.
@MainActor func measureColourSearch(count: Int) {
    var state = makeSearchLibrary(count: count, ratios: (0..<count).map { 0.4 + Double($0 % 22) / 10 }).state
    var random = SplitMix64(seed: 45)
    for gallery in state.galleries.indices {
        state.galleries[gallery].images = state.galleries[gallery].images.map { image in
            var image = image
            var shares = (0..<4).map { _ in Float.random(in: 0.02...1, using: &random) }
            let total = shares.reduce(0, +)
            shares = shares.map { $0 / total }.sorted(by: >)
            let swatches = shares.map { share in
                Palette.Swatch(
                    colour: OklabColour(
                        red: Float.random(in: 0...1, using: &random), green: Float.random(in: 0...1, using: &random),
                        blue: Float.random(in: 0...1, using: &random)),
                    share: share)
            }
            image.likeness = Likeness(
                fingerprint: Fingerprint(rawValue: UInt64.random(in: 0...UInt64.max, using: &random)),
                palette: Palette(swatches: swatches))
            return image
        }
    }
    let corpus = buildIndexInPieces(GalleryLibrary(state: state)).corpus
    let colours = NamedColour.allCases.map(SearchColour.named) + [.picked(0x336699)]
    for text in ["", "chat"] {
        for colour in colours {
            var query = SearchQuery(text: text)
            query.colour = colour
            measureSearch(
                query, in: corpus,
                named: "\(colour.text)\(text.isEmpty ? "" : " with “\(text)”") over \(count) images")
        }
    }
    // The generated library's palettes: greens, a yellow, a grey and a black.
    let palettes: [Palette] = [
        0x8A5C_4A2B_3D1C_1E2F, 0x9C4B_5A3C_2E2D_1F1A, 0x7D6B_6C4A_3B2C_2A1B, 0xA35E_4C2D_1B3C_1A4D,
    ].map { Palette(rawValue: $0)! }
    let red = Palette(swatches: [Palette.Swatch(colour: OklabColour(rgb: NamedColour.red.shown), share: 1)])
    for gallery in state.galleries.indices {
        state.galleries[gallery].images = state.galleries[gallery].images.map { image in
            var image = image
            let isRed = Int.random(in: 0..<10_000, using: &random) == 0
            image.likeness?.palette = isRed ? red : palettes[Int.random(in: 0..<4, using: &random)]
            return image
        }
    }
    let fewColours = buildIndexInPieces(GalleryLibrary(state: state)).corpus
    for name in NamedColour.allCases {
        var query = SearchQuery()
        query.colour = .named(name)
        measureSearch(query, in: fewColours, named: "\(name.rawValue) over \(count) images of four palettes")
    }
}

/// Searches `query` seven times, and prints the median and range of their times and how many images it found.
private func measureSearch(_ query: SearchQuery, in corpus: SearchCorpus, named name: String) {
    let clock = ContinuousClock()
    var found = 0
    var samples = (0..<7).map { _ in clock.measure { found = corpus.search(query)?.ids.count ?? 0 } }
    samples.sort()
    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }
    print(
        String(
            format: "colour search %@: median %.1f ms, range %.1f–%.1f ms, %d found", name as NSString,
            milliseconds(samples[3]), milliseconds(samples[0]), milliseconds(samples[6]), found))
}
