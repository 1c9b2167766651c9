import Foundation
import GalleryCore
import GalleryIO

/// `gallery-benchmark likeness FILE…`: each file's fingerprint and palette as the app measures them at a drop, one
/// line each (`fingerprint palette path`, `- - path` for no picture), for Tests/benchmarks/likeness_quality.py.
func printLikenesses(of paths: [String]) {
    for path in paths {
        guard let bytes = FileManager.default.contents(atPath: path), let likeness = Likeness(imageBytes: bytes) else {
            print("- - \(path)")
            continue
        }
        let palette = String(likeness.palette.rawValue, radix: 16)
        print("\(likeness.fingerprint) \(String(repeating: "0", count: 16 - palette.count) + palette) \(path)")
    }
}

/// `gallery-benchmark likeness-index [image count]`: the near-duplicate look-up a drop makes, over an index of that
/// many random fingerprints (a twentieth of them near copies of others), and the likeness measured from a
/// decoded picture of a drop's size; then the live index over a library of them (`measureLiveLikenessIndex`).
@MainActor func measureLikenessIndex(count: Int) {
    var random = SystemRandomNumberGenerator()
    var values = (0..<count - count / 20).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) }
    func nearCopy(of value: UInt64) -> UInt64 {
        var copy = value
        for _ in 0..<Int.random(in: 0...Likeness.nearDuplicateDistance, using: &random) {
            copy ^= 1 << UInt64.random(in: 0..<64, using: &random)
        }
        return copy
    }
    values += (0..<count / 20).map { _ in nearCopy(of: values.randomElement(using: &random)!) }
    let fingerprints = values.map(Fingerprint.init(rawValue:))
    let clock = ContinuousClock()
    var index: FingerprintIndex?
    let built = clock.measure { index = FingerprintIndex(fingerprints) }
    guard let index else { return }
    // Half the look-ups are for copies of images in the index, half for new pictures.
    let queries = (0..<2_000).map { number in
        Fingerprint(
            rawValue: number.isMultiple(of: 2)
                ? nearCopy(of: values.randomElement(using: &random)!)
                : UInt64.random(in: 0...UInt64.max, using: &random))
    }
    var found = 0
    var samples = queries.map { query in
        clock.measure { found += index.numbers(within: Likeness.nearDuplicateDistance, of: query).count }
    }
    samples.sort()
    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }
    print("\(count) fingerprints, index built in \(String(format: "%.1f", milliseconds(built))) ms")
    print(
        String(
            format: "near-duplicate look-up within %d: median %.3f ms, p95 %.3f ms, max %.3f ms (%d found)",
            Likeness.nearDuplicateDistance, milliseconds(samples[samples.count / 2]),
            milliseconds(samples[samples.count * 95 / 100]), milliseconds(samples.last!), found))
    // The palettes are the search entries', which colour searches read, with their blocks.
    var blocks = PaletteBlocks()
    blocks.reserveCapacity(adding: count)
    for _ in 0..<count { blocks.append(0xF000_0000_0000_0000) }
    let bytes = index.byteCount + MemoryLayout<Palette>.size * count + blocks.allocatedBytes
    print(String(format: "fingerprints, palettes and index: %.1f bytes an image", Double(bytes) / Double(count)))
    measureLiveLikenessIndex(values: values)
    measureLikenessOfPicture()
}

/// What measuring a likeness adds to a drop's decode: from a photo-like picture of a drop's decoded size.
private func measureLikenessOfPicture() {
    let side = Likeness.decodedSide
    let (width, height) = (side, side * 3 / 4)
    var random = SystemRandomNumberGenerator()
    let pixels = (0..<width * height * 3).map { index in
        UInt8(
            truncatingIfNeeded: (index / 3 % width + index / (3 * width)) / 4 + Int.random(in: 0...40, using: &random))
    }
    let clock = ContinuousClock()
    var samples: [Duration] = (0..<31).map { _ in
        clock.measure {
            let grid = ColourGrid(pixels: pixels.span, width: width, height: height, rowBytes: width * 3, layout: .rgb)
            precondition(Likeness(grid).palette.rawValue != 0)
        }
    }
    samples.sort()
    let median = samples[samples.count / 2]
    print(
        String(
            format: "likeness of a %d×%d picture: median %.2f ms, range %.2f–%.2f ms", width, height,
            Double(median.components.attoseconds) / 1e15, Double(samples[0].components.attoseconds) / 1e15,
            Double(samples.last!.components.attoseconds) / 1e15))
}
