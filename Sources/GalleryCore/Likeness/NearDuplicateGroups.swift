import Dispatch
import Synchronization

/// The groups of images whose fingerprints join by chains of near-duplicate pairs, found without comparing every
/// pair: the fingerprint's four 16-bit bands each sort the fingerprints into buckets, and only the pairs in buckets
/// whose band values are near enough are compared; each pair found within the distance joins two groups. Two
/// fingerprints within d differ in some band b by at most r_b bits whenever the radii's r_b + 1 add up to more than
/// d, so the radii are shared out that way: within 10, three bands are read at 2 bits and the fourth at 1, where 2
/// for all compared a third more pairs. A pair is kept in the first band that finds it only. The buckets are
/// searched in slices side by side. An image is known by its number, its place in the fingerprints the groups were
/// found among.
public struct NearDuplicateGroups: Sendable, Equatable {
    /// Each group's image numbers, ascending; groups of two or more, ordered by their first number.
    public let groups: [[Int]]

    static let bands = 4
    static let bandBits = 16
    /// Parts each band's buckets are searched in: enough for the workers to share the bands evenly.
    static let slices = 16

    /// The groups among `fingerprints` whose pairs are at most `distance` apart; nil once `isCancelled` says so.
    public init?(_ fingerprints: [Fingerprint], within distance: Int, isCancelled: @Sendable () -> Bool = { false }) {
        precondition(fingerprints.count < Int(Int32.max))
        let radii = Self.radii(within: distance)
        let sorts = Mutex<[BandSort?]>(Array(repeating: nil, count: Self.bands))
        DispatchQueue.concurrentPerform(iterations: Self.bands) { band in
            guard radii[band] >= 0 else { return }
            let sorted = BandSort(fingerprints, band: band)
            sorts.withLock { $0[band] = sorted }
        }
        let sorted = sorts.withLock { $0 }
        let found = Mutex<(pairs: [(Int32, Int32)], cancelled: Bool)>(([], false))
        let bucketCount = 1 << Self.bandBits
        DispatchQueue.concurrentPerform(iterations: Self.bands * Self.slices) { job in
            let band = job % Self.bands
            guard let sort = sorted[band] else { return }
            let slice = job / Self.bands
            let buckets = bucketCount * slice / Self.slices..<bucketCount * (slice + 1) / Self.slices
            let search = BandSearch(band: band, radii: radii, distance: distance)
            guard let pairs = search.pairs(in: sort, buckets: buckets, isCancelled) else {
                found.withLock { $0.cancelled = true }
                return
            }
            found.withLock { $0.pairs += pairs }
        }
        let (pairs, cancelled) = found.withLock { ($0.pairs, $0.cancelled) }
        guard !cancelled else { return nil }
        var parents = Array(0..<fingerprints.count)
        for (first, second) in pairs { Self.join(Int(first), Int(second), in: &parents) }
        // A group's root is its lowest number, so its members come in ascending order after it; groups are made in
        // the order of their second member.
        var groupOfRoot = [Int](repeating: -1, count: parents.count)
        var groups: [[Int]] = []
        for number in parents.indices {
            let root = Self.root(of: number, in: &parents)
            guard root != number else { continue }
            if groupOfRoot[root] < 0 {
                groupOfRoot[root] = groups.count
                groups.append([root])
            }
            groups[groupOfRoot[root]].append(number)
        }
        self.groups = groups.sorted { $0[0] < $1[0] }
    }

    /// The bits each band's values may differ by for its buckets to be compared, -1 for a band not read: their
    /// r + 1 add up to `distance` + 1, shared out as evenly as can be.
    static func radii(within distance: Int) -> [Int] {
        let total = distance + 1
        return (0..<bands).map { band in total / bands + (band < total % bands ? 1 : 0) - 1 }
    }

    /// How one band's buckets are searched.
    private struct BandSearch {
        var band: Int
        var radii: [Int]
        var distance: Int
        /// The masks of the band's bucket values to compare with, of one bit up to the band's radius.
        var masks: [Int]

        init(band: Int, radii: [Int], distance: Int) {
            self.band = band
            self.radii = radii
            self.distance = distance
            masks = (0...UInt16.max).filter { $0 != 0 && $0.nonzeroBitCount <= radii[band] }.map(Int.init)
        }

        /// Whether a pair this band found near was found by an earlier band already.
        private func isEarlier(_ difference: UInt64) -> Bool {
            (0..<band).contains { earlier in
                (difference >> UInt64(earlier * bandBits) & 0xFFFF).nonzeroBitCount <= radii[earlier]
            }
        }

        /// The pairs within `distance` among those whose values of the band are at most the masks' bits apart, from
        /// `buckets` to any bucket above.
        func pairs(in sorted: BandSort, buckets: Range<Int>, _ isCancelled: () -> Bool) -> [(Int32, Int32)]? {
            let values = sorted.values.span
            let numbers = sorted.numbers.span
            let starts = sorted.starts.span
            var pairs: [(Int32, Int32)] = []
            for bucket in buckets {
                if bucket & 0x3ff == 0 && isCancelled() { return nil }
                let start = starts[bucket]
                let end = starts[bucket + 1]
                guard start < end else { continue }
                for first in start..<end {
                    let value = values[first]
                    for second in first + 1..<end {
                        let difference = value ^ values[second]
                        if difference.nonzeroBitCount <= distance && !isEarlier(difference) {
                            pairs.append((numbers[first], numbers[second]))
                        }
                    }
                }
                // Each pair of buckets once: from the lower.
                for mask in masks {
                    let other = bucket ^ mask
                    guard other > bucket else { continue }
                    let otherStart = starts[other]
                    let otherEnd = starts[other + 1]
                    guard otherStart < otherEnd else { continue }
                    for first in start..<end {
                        let value = values[first]
                        for second in otherStart..<otherEnd {
                            let difference = value ^ values[second]
                            if difference.nonzeroBitCount <= distance && !isEarlier(difference) {
                                pairs.append((numbers[first], numbers[second]))
                            }
                        }
                    }
                }
            }
            return pairs
        }
    }

    private static func root(of number: Int, in parents: inout [Int]) -> Int {
        var root = number
        while parents[root] != root { root = parents[root] }
        var current = number
        while parents[current] != root {
            let next = parents[current]
            parents[current] = root
            current = next
        }
        return root
    }

    private static func join(_ first: Int, _ second: Int, in parents: inout [Int]) {
        let one = root(of: first, in: &parents)
        let other = root(of: second, in: &parents)
        guard one != other else { return }
        // The lower number is the root, so a group is named by its first image.
        if one < other { parents[other] = one } else { parents[one] = other }
    }

    /// The fingerprints sorted by one band's value (a counting sort), with where each value's bucket starts.
    private struct BandSort: Sendable {
        var values: [UInt64]
        var numbers: [Int32]
        var starts: [Int]

        init(_ fingerprints: [Fingerprint], band: Int) {
            let shift = UInt64(band * NearDuplicateGroups.bandBits)
            let mask: UInt64 = (1 << UInt64(NearDuplicateGroups.bandBits)) - 1
            var starts = [Int](repeating: 0, count: (1 << NearDuplicateGroups.bandBits) + 1)
            for fingerprint in fingerprints { starts[Int((fingerprint.rawValue >> shift) & mask) + 1] += 1 }
            for bucket in 0..<(starts.count - 1) { starts[bucket + 1] += starts[bucket] }
            var next = starts
            var values = [UInt64](repeating: 0, count: fingerprints.count)
            var numbers = [Int32](repeating: 0, count: fingerprints.count)
            for (number, fingerprint) in fingerprints.enumerated() {
                let bucket = Int((fingerprint.rawValue >> shift) & mask)
                values[next[bucket]] = fingerprint.rawValue
                numbers[next[bucket]] = Int32(number)
                next[bucket] += 1
            }
            self.values = values
            self.numbers = numbers
            self.starts = starts
        }
    }
}
