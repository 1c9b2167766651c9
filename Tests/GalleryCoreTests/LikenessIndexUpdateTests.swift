import Foundation
import Testing

@testable import GalleryCore

/// The index changed in place finds what one built anew finds, and what a scan finds: over random runs of numbers
/// replaced, and over a library's random adds, deletes, merges, measures, moves and galleries.
@Suite struct FingerprintIndexReplaceTests {
    /// A random fingerprint, near one of `known` a third of the time, none a tenth of the time.
    private static func fingerprint(near known: [Fingerprint?], _ random: inout SplitMix64) -> Fingerprint? {
        if Int.random(in: 0..<10, using: &random) == 0 { return nil }
        if !known.isEmpty, Int.random(in: 0..<3, using: &random) == 0, let base = known.randomElement(using: &random)! {
            var value = base.rawValue
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                value ^= 1 << UInt64.random(in: 0..<64, using: &random)
            }
            return Fingerprint(rawValue: value)
        }
        return Fingerprint(rawValue: UInt64.random(in: 0...UInt64.max, using: &random))
    }

    @Test func runsReplacedAtRandomFindWhatARebuildAndAScanFind() {
        var random = SplitMix64(seed: 145)
        var places: [Fingerprint?] = []
        for _ in 0..<3_000 { places.append(Self.fingerprint(near: places, &random)) }
        var index = FingerprintIndex(places)
        for step in 0..<24 {
            // Mostly one place added, removed or changed, as a drop, a delete or a measure does; sometimes a long run.
            let length =
                step % 10 == 0 ? Int.random(in: 0...200, using: &random) : Int.random(in: 0...1, using: &random)
            let start = Int.random(in: 0...places.count, using: &random)
            let range = start..<min(start + length, places.count)
            let new = (0..<Int.random(in: 0...(step % 10 == 5 ? 200 : 1), using: &random)).map { _ in
                Self.fingerprint(near: places, &random)
            }
            places.replaceSubrange(range, with: new)
            index.replace(range, with: new)
            #expect(index.count == places.count)
            guard step % 4 == 0 || step == 23 else { continue }
            let rebuilt = FingerprintIndex(places)
            for _ in 0..<40 {
                guard let query = Self.fingerprint(near: places, &random) else { continue }
                for distance in [0, 5, 10, 14] {
                    let scanned = places.indices.filter {
                        places[$0].map { $0.distance(to: query) <= distance } ?? false
                    }
                    #expect(index.numbers(within: distance, of: query).sorted() == scanned)
                    #expect(rebuilt.numbers(within: distance, of: query).sorted() == scanned)
                }
            }
            #expect(places.indices.allSatisfy { index[$0] == places[$0] })
        }
    }

    @Test func everythingRemovedThenAddedAgain() {
        let places: [Fingerprint?] = [Fingerprint(rawValue: 1), nil, Fingerprint(rawValue: 3)]
        var index = FingerprintIndex(places)
        index.replace(0..<3, with: [])
        #expect(index.count == 0)
        #expect(index.numbers(within: 10, of: Fingerprint(rawValue: 1)).isEmpty)
        index.replace(0..<0, with: places)
        #expect(index.numbers(within: 1, of: Fingerprint(rawValue: 1)).sorted() == [0, 2])
    }
}

@MainActor @Suite struct LikenessIndexUpdateTests {
    private func image(_ id: String, _ fingerprint: Fingerprint?) -> GalleryImage {
        var image = GalleryImage(id: ImageID(id), url: "https://e.test/\(id).png", aspectRatio: 1)
        image.likeness = fingerprint.map {
            Likeness(fingerprint: $0, palette: Palette(rawValue: 0xF000_0000_0000_0000)!)
        }
        return image
    }

    /// Every image of the library within the near-duplicate distance, nearest first, then in library order.
    private func scanned(_ library: GalleryLibrary, _ query: Fingerprint) -> [String] {
        var found: [(distance: Int, place: Int, id: String)] = []
        for gallery in library.galleries {
            for cell in library.cells(of: gallery.id) {
                guard let other = cell.image?.likeness?.fingerprint else { continue }
                let distance = other.distance(to: query)
                if distance <= Likeness.nearDuplicateDistance {
                    found.append((distance, found.count, cell.id.rawValue))
                }
            }
        }
        return found.sorted { ($0.distance, $0.place) < ($1.distance, $1.place) }.map(\.id)
    }

    @Test func randomAddsDeletesMergesMeasuresMovesAndGalleriesAreFoundAsAScanFindsThem() throws {
        var random = SplitMix64(seed: 245)
        var known: [Fingerprint] = []
        var next = 0
        func newImage(measured: Bool = true) -> GalleryImage {
            next += 1
            var value = UInt64.random(in: 0...UInt64.max, using: &random)
            if !known.isEmpty, Bool.random(using: &random) {
                value = known.randomElement(using: &random)!.rawValue ^ (1 << UInt64.random(in: 0..<64, using: &random))
            }
            let fingerprint = Fingerprint(rawValue: value)
            known.append(fingerprint)
            return image("i\(next)", measured ? fingerprint : nil)
        }
        let library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(id: "g", name: "G", images: (0..<300).map { _ in newImage(measured: next % 7 != 0) }),
                Gallery(id: "k", name: "K", images: (0..<200).map { _ in newImage() }),
            ]))
        var jobs: [(work: @Sendable () -> Void, then: @MainActor () -> Void)] = []
        let index = LikenessIndex(library: library) { work, then in jobs.append((work, then)) }
        func check() {
            for _ in 0..<6 {
                let query = known.randomElement(using: &random)!
                var found: [String]?
                index.nearDuplicates(
                    of: Likeness(fingerprint: query, palette: Palette(rawValue: 0xF000_0000_0000_0000)!)
                ) { found = $0.map(\.id.rawValue) }
                while !jobs.isEmpty {
                    let job = jobs.removeFirst()
                    job.work()
                    job.then()
                }
                #expect(found == scanned(library, query))
            }
        }
        check()
        for step in 0..<120 {
            let galleries = library.galleries.map(\.id)
            let galleryID = galleries.randomElement(using: &random)!
            let ids = library.cells(of: galleryID).compactMap(\.image).map(\.id)
            switch step % 8 {
            case 0, 1:
                let at = Int.random(in: 0...library.cells(of: galleryID).count, using: &random)
                let placeholder = try #require(library.insertPlaceholder(in: galleryID, at: at, label: "p"))
                if step % 8 == 0 { library.fulfillPlaceholder(placeholder, with: newImage()) }
            case 2 where !ids.isEmpty:
                _ = library.remove([ids.randomElement(using: &random)!], from: galleryID)
            case 3 where ids.count > 2:
                // The copy merged may be in another gallery: both galleries change in one step.
                let other = galleries.randomElement(using: &random)!
                let copies = library.cells(of: other).compactMap(\.image).map(\.id).filter { $0 != ids[0] }
                guard let copy = copies.randomElement(using: &random) else { break }
                library.merge([DuplicateMerge(kept: ids[0], merged: [copy])])
            case 4:
                let unmeasured = library.cells(of: galleryID).enumerated().filter {
                    $0.element.image != nil && $0.element.image?.likeness == nil
                }
                guard let (at, cell) = unmeasured.randomElement(using: &random) else { break }
                let measured = try #require(newImage().likeness)
                library.recordLikenesses([(cell.id, galleryID, at, measured)])
            case 5 where ids.count > 3:
                _ = library.move(
                    Array(ids.shuffled(using: &random).prefix(3)), in: galleryID,
                    toInsertionIndex: Int.random(in: 0...ids.count - 3, using: &random))
            case 6:
                if galleries.count < 4 {
                    let created = library.createGallery(
                        named: "N", at: Int.random(in: 0...galleries.count, using: &random))
                    let placeholder = try #require(library.insertPlaceholder(in: created, label: "p"))
                    library.fulfillPlaceholder(placeholder, with: newImage())
                } else {
                    _ = library.deleteGallery(galleryID)
                }
            case 7:
                if Bool.random(using: &random) {
                    _ = library.undo()
                } else {
                    _ = library.moveGallery(galleryID, to: Int.random(in: 0..<galleries.count, using: &random))
                }
            default:
                break
            }
            check()
        }
        // Built once, at the first look-up; every change since was taken up in place.
        #expect(index.buildCount == 1)
        #expect(index.updateCount > 100)
    }
}
