import GalleryCore
import Testing

/// What another computer's edits are said to have changed: counted in the galleries that changed only, it must be
/// what comparing every image of both libraries counts.
struct IncomingChangesTests {
    private struct Counts: Equatable {
        var added: Int
        var removed: Int
        var galleriesAdded: Int
    }

    /// Every image id of both libraries compared.
    private func wholeLibraryCounts(before: GalleryState, after: GalleryState) -> Counts {
        let beforeImages = Set(before.galleries.flatMap { $0.images.map(\.id) })
        let afterImages = Set(after.galleries.flatMap { $0.images.map(\.id) })
        return Counts(
            added: afterImages.subtracting(beforeImages).count, removed: beforeImages.subtracting(afterImages).count,
            galleriesAdded: Set(after.galleries.map(\.id)).subtracting(before.galleries.map(\.id)).count)
    }

    private func counts(_ changes: IncomingChanges) -> Counts {
        Counts(added: changes.imagesAdded, removed: changes.imagesRemoved, galleriesAdded: changes.galleriesAdded)
    }

    private func image(_ number: Int) -> GalleryImage {
        GalleryImage(id: ImageID("i\(number)"), url: "https://e.org/\(number).png", aspectRatio: 1)
    }

    /// One random edit as another computer makes them: a move, an arrival, a deletion, a note, a reorder, a gallery
    /// made or deleted.
    private func edit(_ state: inout GalleryState, next: inout Int, random: inout SplitMix64) {
        let nonEmpty = state.galleries.indices.filter { !state.galleries[$0].images.isEmpty }
        switch Int.random(in: 0..<7, using: &random) {
        case 0 where !nonEmpty.isEmpty:
            let from = nonEmpty.randomElement(using: &random)!
            let moved = state.galleries[from].images.remove(
                at: Int.random(in: state.galleries[from].images.indices, using: &random))
            let to = Int.random(in: state.galleries.indices, using: &random)
            state.galleries[to].images.insert(
                moved, at: Int.random(in: 0...state.galleries[to].images.count, using: &random))
        case 1 where !state.galleries.isEmpty:
            let to = Int.random(in: state.galleries.indices, using: &random)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                state.galleries[to].images.append(image(next))
                next += 1
            }
        case 2 where !nonEmpty.isEmpty:
            let from = nonEmpty.randomElement(using: &random)!
            state.galleries[from].images.remove(
                at: Int.random(in: state.galleries[from].images.indices, using: &random))
        case 3 where !nonEmpty.isEmpty:
            let at = nonEmpty.randomElement(using: &random)!
            state.galleries[at].images[0].note = "note \(next)"
            next += 1
        case 4 where !nonEmpty.isEmpty:
            let at = nonEmpty.randomElement(using: &random)!
            state.galleries[at].images.shuffle(using: &random)
        case 5:
            state.galleries.insert(
                Gallery(id: "g\(next)", name: "New", images: [image(next + 1)]),
                at: Int.random(in: 0...state.galleries.count, using: &random))
            next += 2
        case 6 where state.galleries.count > 1:
            state.galleries.remove(at: Int.random(in: state.galleries.indices, using: &random))
        default:
            break
        }
    }

    @Test func theChangedGalleriesCountWhatTheWholeLibraryCounts() {
        var random = SplitMix64(seed: 48)
        for _ in 0..<300 {
            var next = 0
            var before = GalleryState(galleries: [])
            for gallery in 0..<Int.random(in: 1...6, using: &random) {
                let images = (0..<Int.random(in: 0...8, using: &random)).map { offset in image(next + offset) }
                next += images.count
                before.galleries.append(Gallery(id: "g\(gallery)", name: "G\(gallery)", images: images))
            }
            next += 100
            var after = before
            for _ in 0..<Int.random(in: 1...4, using: &random) { edit(&after, next: &next, random: &random) }
            #expect(
                counts(IncomingChanges(before: before, after: after))
                    == wholeLibraryCounts(before: before, after: after))
        }
    }

    @Test func anImageMovedBetweenGalleriesIsNeitherAddedNorDeleted() {
        let before = GalleryState(galleries: [
            Gallery(id: "a", name: "A", images: [image(1), image(2)]),
            Gallery(id: "b", name: "B", images: [image(3)]),
            Gallery(id: "c", name: "C", images: [image(4)]),
        ])
        var after = before
        after.galleries[1].images.append(after.galleries[0].images.removeFirst())
        let changes = IncomingChanges(before: before, after: after)
        #expect(counts(changes) == Counts(added: 0, removed: 0, galleriesAdded: 0))
        #expect(changes.message == "Changes made on another computer were merged in")
    }
}
