/// Fingerprints indexed for "every one within distance d" without reading them all (multi-index hashing): three
/// 16-bit bands of the fingerprint each sort the images into buckets, and two fingerprints within d differ in
/// at least one band by at most d / 3 bits, so only the buckets that near each band are read. An image is
/// known by its number, its place in the sequence the index holds (which may have places without a fingerprint:
/// the library's placeholders and images not measured yet), so that no id is kept here; each band holds the
/// numbers in three bytes, which keeps the index within a few bytes of the fingerprints themselves. A change
/// replaces a run of numbers in place (`replace`), which costs a pass over the bands, not a sort of them.
public struct FingerprintIndex: Sendable {
    /// The bands indexed: the fourth is left out, which keeps the index small and the search still exact.
    static let bands = 3
    static let bandBits = 16
    static let buckets = 1 << bandBits
    /// The largest distance within a band whose buckets are read; farther searches read every fingerprint.
    static let largestBandRadius = 4

    /// Each number's fingerprint, 0 where there is none.
    private var fingerprints: [UInt64]
    /// Whether each number has a fingerprint.
    private var isMeasured: [Bool]
    /// The most numbers an index holds: a number takes three bytes.
    public static let largestCount = 1 << 24
    /// For each band, the numbers that have a fingerprint sorted by the band's value, three bytes each.
    private var entries: [[UInt8]]
    /// For each band, where each value's bucket starts in `entries` (one more, the end).
    private var starts: [[UInt32]]

    /// The 16-bit masks of each weight up to `largestBandRadius`, lightest first.
    private static let masks: [UInt16] = (0...UInt16.max).filter { $0.nonzeroBitCount <= largestBandRadius }
        .sorted { $0.nonzeroBitCount < $1.nonzeroBitCount }
    private static let maskCountByRadius: [Int] = (0...largestBandRadius).map { radius in
        masks.count { $0.nonzeroBitCount <= radius }
    }

    /// The index of `fingerprints`, each numbered by its place; nil is a place without one.
    public init(_ fingerprints: [Fingerprint?]) {
        precondition(fingerprints.count <= Self.largestCount)
        self.fingerprints = fingerprints.map { $0?.rawValue ?? 0 }
        isMeasured = fingerprints.map { $0 != nil }
        entries = []
        starts = []
        for band in 0..<Self.bands {
            // A counting sort by the band's value.
            var bucketStarts = [UInt32](repeating: 0, count: Self.buckets + 1)
            var measured = 0
            for (value, isMeasured) in zip(self.fingerprints, isMeasured) where isMeasured {
                bucketStarts[Self.band(band, of: value) + 1] += 1
                measured += 1
            }
            for bucket in 0..<Self.buckets { bucketStarts[bucket + 1] += bucketStarts[bucket] }
            var next = bucketStarts
            var sorted = [UInt8](repeating: 0, count: measured * 3)
            for (number, value) in self.fingerprints.enumerated() where isMeasured[number] {
                let bucket = Self.band(band, of: value)
                Self.write(number, at: Int(next[bucket]), in: &sorted)
                next[bucket] += 1
            }
            entries.append(sorted)
            starts.append(bucketStarts)
        }
    }

    public var count: Int { fingerprints.count }

    /// Memory the index holds, as allocated: its fingerprints, their flags, its entries and its buckets' starts.
    public var byteCount: Int {
        fingerprints.capacity * 8 + isMeasured.capacity + entries.reduce(0) { $0 + $1.capacity }
            + starts.reduce(0) { $0 + $1.capacity * 4 }
    }

    /// The fingerprint of number `number`; nil for a place without one.
    public subscript(number: Int) -> Fingerprint? {
        isMeasured[number] ? Fingerprint(rawValue: fingerprints[number]) : nil
    }

    /// Numbers `range` replaced by places holding `new`, numbered from the range's start; the numbers after it move
    /// by the difference. Each band's entries are rewritten in one pass in bucket order, those that come keeping
    /// their buckets' order among themselves.
    public mutating func replace(_ range: Range<Int>, with new: [Fingerprint?]) {
        precondition(count - range.count + new.count <= Self.largestCount)
        guard !range.isEmpty || !new.isEmpty else { return }
        let shift = new.count - range.count
        let leaving = isMeasured[range].count { $0 }
        let coming = new.indices.filter { new[$0] != nil }
        fingerprints.replaceSubrange(range, with: new.map { $0?.rawValue ?? 0 })
        isMeasured.replaceSubrange(range, with: new.map { $0 != nil })
        for band in 0..<Self.bands {
            let incoming = coming.map {
                (bucket: Self.band(band, of: new[$0]!.rawValue), number: range.lowerBound + $0)
            }
            .sorted { ($0.bucket, $0.number) < ($1.bucket, $1.number) }
            let oldStarts = starts[band]
            var newStarts = [UInt32](repeating: 0, count: Self.buckets + 1)
            let total = Int(oldStarts[Self.buckets]) - leaving + incoming.count
            var result = [UInt8](repeating: 0, count: total * 3)
            entries[band].withUnsafeBufferPointer { old in
                result.withUnsafeMutableBufferPointer { written in
                    var place = 0
                    var next = 0
                    for bucket in 0..<Self.buckets {
                        newStarts[bucket] = UInt32(place)
                        for position in Int(oldStarts[bucket])..<Int(oldStarts[bucket + 1]) {
                            let number =
                                Int(old[position * 3]) | Int(old[position * 3 + 1]) << 8
                                | Int(old[position * 3 + 2]) << 16
                            if number < range.lowerBound {
                                Self.write(number, at: place, in: written)
                            } else if number >= range.upperBound {
                                Self.write(number + shift, at: place, in: written)
                            } else {
                                continue
                            }
                            place += 1
                        }
                        while next < incoming.count && incoming[next].bucket == bucket {
                            Self.write(incoming[next].number, at: place, in: written)
                            place += 1
                            next += 1
                        }
                    }
                    newStarts[Self.buckets] = UInt32(place)
                }
            }
            entries[band] = result
            starts[band] = newStarts
        }
    }

    /// The numbers whose fingerprints are at most `distance` from `fingerprint`, in no order.
    public func numbers(within distance: Int, of fingerprint: Fingerprint) -> [Int] {
        let target = fingerprint.rawValue
        let radius = distance / Self.bands
        guard radius <= Self.largestBandRadius else {
            return fingerprints.indices.filter {
                isMeasured[$0] && (fingerprints[$0] ^ target).nonzeroBitCount <= distance
            }
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

    /// The first `limit` numbers whose fingerprints are at most `distance` from `fingerprint`, nearest first and in
    /// number order among equals: one pass over the packed fingerprints (a search this wide would read most buckets),
    /// then a counting sort by distance, as only a few of them are near.
    public func nearest(_ limit: Int, within distance: Int, of fingerprint: Fingerprint) -> [(
        number: Int, distance: Int
    )] {
        let target = fingerprint.rawValue
        var byDistance = [[Int]](repeating: [], count: distance + 1)
        fingerprints.withUnsafeBufferPointer { fingerprints in
            isMeasured.withUnsafeBufferPointer { isMeasured in
                for number in fingerprints.indices {
                    let found = (fingerprints[number] ^ target).nonzeroBitCount
                    if found <= distance && isMeasured[number] { byDistance[found].append(number) }
                }
            }
        }
        var nearest: [(number: Int, distance: Int)] = []
        for (found, numbers) in byDistance.enumerated() where nearest.count < limit {
            nearest += numbers.prefix(limit - nearest.count).map { ($0, found) }
        }
        return nearest
    }

    private static func band(_ band: Int, of value: UInt64) -> Int {
        Int(truncatingIfNeeded: value >> UInt64(band * bandBits)) & ((1 << bandBits) - 1)
    }

    private static func write(_ number: Int, at place: Int, in entries: inout [UInt8]) {
        entries[place * 3] = UInt8(truncatingIfNeeded: number)
        entries[place * 3 + 1] = UInt8(truncatingIfNeeded: number >> 8)
        entries[place * 3 + 2] = UInt8(truncatingIfNeeded: number >> 16)
    }

    private static func write(_ number: Int, at place: Int, in entries: UnsafeMutableBufferPointer<UInt8>) {
        entries[place * 3] = UInt8(truncatingIfNeeded: number)
        entries[place * 3 + 1] = UInt8(truncatingIfNeeded: number >> 8)
        entries[place * 3 + 2] = UInt8(truncatingIfNeeded: number >> 16)
    }
}
