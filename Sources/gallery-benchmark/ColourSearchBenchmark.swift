import Foundation
import GalleryCore

/// `gallery-benchmark colour-search [image count]`: a colour search over the search library of that many images
/// (default 250,000), each with a palette of four random colours: each named colour and a picked one, searched alone
/// and with a word, seven times each; the median and range of each, and how many images each found.
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
    let clock = ContinuousClock()
    let colours = NamedColour.allCases.map(SearchColour.named) + [.picked(0x336699)]
    for text in ["", "chat"] {
        for colour in colours {
            var query = SearchQuery(text: text)
            query.colour = colour
            var found = 0
            var samples = (0..<7).map { _ in clock.measure { found = corpus.search(query)?.ids.count ?? 0 } }
            samples.sort()
            func milliseconds(_ duration: Duration) -> Double {
                Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
            }
            print(
                String(
                    format: "colour search %@%@ over %d images: median %.1f ms, range %.1f–%.1f ms, %d found",
                    colour.text as NSString, (text.isEmpty ? "" : " with “\(text)”") as NSString, count,
                    milliseconds(samples[3]), milliseconds(samples[0]), milliseconds(samples[6]), found))
        }
    }
}
