import Testing

@testable import GalleryCore

@Suite struct NearDuplicateGroupsTests {
    /// Random fingerprints, near copies of some, and copies of those copies (chains a scan of pairs joins).
    private static func fingerprints(seed: UInt64, count: Int) -> [Fingerprint] {
        var random = SplitMix64(seed: seed)
        var values = (0..<count).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) }
        for _ in 0..<count / 4 {
            var value = values.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 0...14, using: &random) {
                value ^= 1 << UInt64.random(in: 0..<64, using: &random)
            }
            values.insert(value, at: Int.random(in: 0...values.count, using: &random))
        }
        return values.map(Fingerprint.init(rawValue:))
    }

    /// The groups a comparison of every pair makes.
    private static func scannedGroups(_ fingerprints: [Fingerprint], within distance: Int) -> [[Int]] {
        var group = Array(fingerprints.indices)
        func root(_ number: Int) -> Int { group[number] == number ? number : root(group[number]) }
        for first in fingerprints.indices {
            for second in first + 1..<fingerprints.count
            where fingerprints[first].distance(to: fingerprints[second]) <= distance {
                let (one, other) = (root(first), root(second))
                group[max(one, other)] = min(one, other)
            }
        }
        let members = Dictionary(grouping: fingerprints.indices, by: root)
        return members.values.filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }

    @Test func theGroupsAreThoseAScanOfEveryPairMakes() {
        for (seed, distance) in [(1, 10), (2, 10), (3, 6), (4, 13), (5, 0)] as [(UInt64, Int)] {
            let fingerprints = Self.fingerprints(seed: seed, count: 1_200)
            let groups = NearDuplicateGroups(fingerprints, within: distance)?.groups
            #expect(groups == Self.scannedGroups(fingerprints, within: distance), "seed \(seed), distance \(distance)")
            #expect(groups?.isEmpty == false)
        }
    }

    @Test func manyCopiesOfOnePictureMakeOneGroup() {
        var random = SplitMix64(seed: 7)
        let original = UInt64.random(in: 0...UInt64.max, using: &random)
        let copies = (0..<300).map { _ in
            original ^ (1 << UInt64.random(in: 0..<64, using: &random))
                ^ (1 << UInt64.random(in: 0..<64, using: &random))
        }
        let groups = NearDuplicateGroups(([original] + copies).map(Fingerprint.init(rawValue:)), within: 10)?.groups
        #expect(groups == [Array(0...300)])
    }

    @Test func distinctPicturesMakeNoGroup() {
        #expect(NearDuplicateGroups([], within: 10)?.groups == [])
        let far = [0, UInt64.max, 0x0000_FFFF_FFFF_0000].map(Fingerprint.init(rawValue:))
        #expect(NearDuplicateGroups(far, within: 10)?.groups == [])
    }

    @Test func aCancelledGroupingEnds() {
        #expect(NearDuplicateGroups(Self.fingerprints(seed: 9, count: 100), within: 10) { true } == nil)
    }
}
