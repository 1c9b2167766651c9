import Foundation
import GalleryCore

/// `gallery-benchmark duplicates [image count]`: Find Duplicates' grouping and More Like This's ranking over a
/// library of that many images in ten galleries, random fingerprints with a twentieth of them near copies of others.
func measureDuplicates(count: Int) {
    var random = SystemRandomNumberGenerator()
    var values = (0..<count - count / 20).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) }
    for _ in 0..<count / 20 {
        var copy = values.randomElement(using: &random)!
        for _ in 0..<Int.random(in: 0...Likeness.nearDuplicateDistance, using: &random) {
            copy ^= 1 << UInt64.random(in: 0..<64, using: &random)
        }
        values.append(copy)
    }
    values.shuffle(using: &random)
    let palette = Palette(swatches: [])
    let cells = values.enumerated().map { number, value in
        var image = GalleryImage(
            id: ImageID("image-\(number)"), url: "https://images.example.org/\(number).jpg", aspectRatio: 1.5)
        image.likeness = Likeness(fingerprint: Fingerprint(rawValue: value), palette: palette)
        return GalleryCell(image)
    }
    let share = count / 10 + 1
    let galleries = (0..<10).map { number in
        (
            id: "gallery-\(number)", name: "Gallery \(number)",
            cells: Array(cells.dropFirst(number * share).prefix(share))
        )
    }
    let clock = ContinuousClock()
    var groupCount = 0
    let grouping = (0..<5).map { _ in
        clock.measure {
            let fingerprints = galleries.flatMap { $0.cells }.compactMap { cell -> Fingerprint? in
                guard case .image(let image) = cell.content else { return nil }
                return image.likeness?.fingerprint
            }
            groupCount = NearDuplicateGroups(fingerprints, within: Likeness.nearDuplicateDistance)?.groups.count ?? 0
        }
    }
    print("\(count) images, \(groupCount) groups of near-duplicates")
    print(summary("Find Duplicates' grouping", grouping))
    var shown = 0
    let index = FingerprintIndex(values.map(Fingerprint.init(rawValue:)))
    let ranking = (0..<31).map { _ in
        let fingerprint = Fingerprint(rawValue: values.randomElement(using: &random)!)
        return clock.measure {
            shown +=
                index.nearest(LookAlikes.mostShown + 1, within: LookAlikes.farthestDistance, of: fingerprint).count - 1
        }
    }
    print(summary("More Like This's results", ranking) + " (\(shown / ranking.count) images each on average)")
}

/// "name: median …, range …–…" in milliseconds.
private func summary(_ name: String, _ samples: [Duration]) -> String {
    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }
    let sorted = samples.sorted()
    return String(
        format: "%@: median %.1f ms, range %.1f–%.1f ms (%d runs)", name, milliseconds(sorted[sorted.count / 2]),
        milliseconds(sorted[0]), milliseconds(sorted.last!), sorted.count)
}
