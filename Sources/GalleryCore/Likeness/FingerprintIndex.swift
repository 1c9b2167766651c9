/// Fingerprints indexed for "every one within distance d" without reading them all (multi-index hashing): three
/// 16-bit bands of the fingerprint each sort the images into buckets, and two fingerprints within d differ in
/// at least one band by at most d / 3 bits, so only the buckets that near each band are read. An image is
/// known by its number, its place in the fingerprints the index was made of; each band holds the numbers in three
/// bytes, which keeps the index within a few bytes of the fingerprints themselves.
public struct FingerprintIndex: Sendable {
    /// The bands indexed: the fourth is left out, which keeps the index small and the search still exact.
    static let bands = 3
    static let bandBits = 16
    /// The largest distance within a band whose buckets are read; farther searches read every fingerprint.
    static let largestBandRadius = 4

    private let fingerprints: [UInt64]
    /// The most images an index holds: an image's number takes three bytes.
    public static let largestCount = 1 << 24
    /// For each band, the image numbers sorted by the band's value, three bytes each, lowest first.
    private let entries: [[UInt8]]
    /// For each band, where each value's bucket starts in `entries` (one more, the end).
    private let starts: [[UInt32]]

    /// The 16-bit masks of each weight up to `largestBandRadius`, lightest first.
    private static let masks: [UInt16] = (0...UInt16.max).filter { $0.nonzeroBitCount <= largestBandRadius }
        .sorted { $0.nonzeroBitCount < $1.nonzeroBitCount }
    private static let maskCountByRadius: [Int] = (0...largestBandRadius).map { radius in
        masks.count { $0.nonzeroBitCount <= radius }
    }

    public init(_ fingerprints: [Fingerprint]) {
        precondition(fingerprints.count <= Self.largestCount)
        let values = fingerprints.map(\.rawValue)
        self.fingerprints = values
        var entries: [[UInt8]] = []
        var starts: [[UInt32]] = []
        let buckets = 1 << Self.bandBits
        for band in 0..<Self.bands {
            // A counting sort by the band's value.
            var bucketStarts = [UInt32](repeating: 0, count: buckets + 1)
            for value in values { bucketStarts[Self.band(band, of: value) + 1] += 1 }
            for bucket in 0..<buckets { bucketStarts[bucket + 1] += bucketStarts[bucket] }
            var next = bucketStarts
            var sorted = [UInt8](repeating: 0, count: values.count * 3)
            for (number, value) in values.enumerated() {
                let bucket = Self.band(band, of: value)
                let place = Int(next[bucket]) * 3
                sorted[place] = UInt8(truncatingIfNeeded: number)
                sorted[place + 1] = UInt8(truncatingIfNeeded: number >> 8)
                sorted[place + 2] = UInt8(truncatingIfNeeded: number >> 16)
                next[bucket] += 1
            }
            entries.append(sorted)
            starts.append(bucketStarts)
        }
        self.entries = entries
        self.starts = starts
    }

    public var count: Int { fingerprints.count }

    /// Memory the index holds: its fingerprints, its entries and its buckets' starts.
    public var byteCount: Int {
        fingerprints.count * 8 + entries.reduce(0) { $0 + $1.count } + starts.reduce(0) { $0 + $1.count * 4 }
    }

    /// The fingerprint of image `number`.
    public subscript(number: Int) -> Fingerprint { Fingerprint(rawValue: fingerprints[number]) }

    /// The numbers of the images whose fingerprints are at most `distance` from `fingerprint`, in no order.
    public func numbers(within distance: Int, of fingerprint: Fingerprint) -> [Int] {
        let target = fingerprint.rawValue
        let radius = distance / Self.bands
        guard radius <= Self.largestBandRadius else {
            return fingerprints.indices.filter { (fingerprints[$0] ^ target).nonzeroBitCount <= distance }
        }
        var found: [Int] = []
        let masks = Self.masks[0..<Self.maskCountByRadius[radius]]
        for band in 0..<Self.bands {
            let value = Self.band(band, of: target)
            let bucketStarts = starts[band]
            let sorted = entries[band]
            for mask in masks {
                let bucket = value ^ Int(mask)
                for position in Int(bucketStarts[bucket])..<Int(bucketStarts[bucket + 1]) {
                    let number =
                        Int(sorted[position * 3]) | Int(sorted[position * 3 + 1]) << 8 | Int(sorted[position * 3 + 2])
                        << 16
                    let difference = fingerprints[number] ^ target
                    guard difference.nonzeroBitCount <= distance else { continue }
                    // Found once: in the first band where it is near enough.
                    let isFirst = (0..<band).allSatisfy {
                        Self.band($0, of: difference).nonzeroBitCount > radius
                    }
                    if isFirst { found.append(number) }
                }
            }
        }
        return found
    }

    private static func band(_ band: Int, of value: UInt64) -> Int {
        Int(truncatingIfNeeded: value >> UInt64(band * bandBits)) & ((1 << bandBits) - 1)
    }
}
