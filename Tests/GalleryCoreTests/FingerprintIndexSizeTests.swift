import Testing

@testable import GalleryCore

/// The index keeps an image's number in three bytes: numbers past two bytes are found as a scan finds them, and the
/// index holds fingerprints, palettes and their look-up within the bytes an image allows.
@Suite struct FingerprintIndexSizeTests {
    @Test func numbersPastTwoBytesAreFoundAsAScanFindsThem() {
        var random = SplitMix64(seed: 46)
        var values = (0..<70_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) }
        // Near copies of early images placed late, so that their numbers need the third byte.
        for index in 0..<500 { values.append(values[index] ^ 0b1011) }
        let fingerprints = values.map(Fingerprint.init(rawValue:))
        let index = FingerprintIndex(fingerprints)
        for query in [0, 1, 2, 69_999, 70_100, 70_499].map({ fingerprints[$0] }) {
            let scanned = fingerprints.indices.filter { fingerprints[$0].distance(to: query) <= 10 }
            #expect(index.numbers(within: 10, of: query).sorted() == scanned)
        }
        #expect(index.numbers(within: 10, of: fingerprints[3]).sorted() == [3, 70_003])
    }

    @Test func fingerprintsPalettesAndTheirIndexTakeAtMost32BytesAnImage() {
        let count = 250_000
        var random = SplitMix64(seed: 47)
        let index = FingerprintIndex(
            (0..<count).map { _ in Fingerprint(rawValue: UInt64.random(in: 0...UInt64.max, using: &random)) })
        let bytes = index.byteCount + MemoryLayout<Palette>.size * count
        #expect(bytes <= 32 * count)
    }
}
