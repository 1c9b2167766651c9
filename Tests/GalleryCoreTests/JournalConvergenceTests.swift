import Testing

@testable import GalleryCore

/// One computer of a shared library: its replica, the library its window shows, and its own log.
private struct Computer {
    let id: String
    var replica: LibraryReplica
    var state: GalleryState
    var log: [UInt8] = []
    /// How far into each other computer's log it has read.
    var offsets: [String: Int] = [:]
    var made = 0

    init(id: String, replica: LibraryReplica) {
        self.id = id
        self.replica = replica
        state = replica.state
    }

    /// An edit made in the window: its changes appended to the log, and the replica then shows exactly it.
    mutating func edit(_ new: GalleryState) {
        let changes = replica.changes(from: state, to: new)
        for entry in replica.commit(changes, by: id) { log += JournalLog.record(entry) }
        #expect(replica.state == new, "the journal of \(id)'s edit does not make its library")
        state = new
    }

    mutating func takeIn(_ other: Computer) {
        let read = JournalLog.read(other.log, from: offsets[other.id] ?? 0)
        #expect(read.stop == nil && read.skipped == 0)
        for entry in read.entries { replica.apply(entry) }
        offsets[other.id] = read.end
        state = replica.state
    }

    var snapshot: JournalSnapshot {
        var covers = offsets
        covers[id] = log.count
        return JournalSnapshot(replica: replica, covers: covers)
    }
}

/// Random edits of the kinds the window makes.
private struct Editor {
    var random: SplitMix64

    mutating func pick(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }

    mutating func edit(_ state: GalleryState, by computer: inout Computer) -> GalleryState {
        var state = state
        computer.made += 1
        let fresh = "\(computer.id)-\(computer.made)"
        let filled = state.galleries.indices.filter { !state.galleries[$0].images.isEmpty }
        switch pick(0..<14) {
        case 0, 1:
            guard !state.galleries.isEmpty else { return state }
            let gallery = pick(0..<state.galleries.count)
            let count = pick(1..<4)
            let place = pick(0..<state.galleries[gallery].images.count + 1)
            let images = (0..<count).map { number in
                var image = GalleryImage(
                    id: ImageID("\(fresh)-\(number)"), url: "https://e.org/\(fresh)-\(number).png", aspectRatio: 1.5)
                if number == 1 { image.origin = ImageOrigin(arrival: .drop, altText: "a cat") }
                return image
            }
            state.galleries[gallery].images.insert(contentsOf: images, at: place)
        case 2:
            guard let gallery = filled.randomElement(using: &random) else { return state }
            state.galleries[gallery].images.remove(at: pick(0..<state.galleries[gallery].images.count))
        case 3, 4:
            guard let gallery = filled.randomElement(using: &random) else { return state }
            let image = state.galleries[gallery].images.remove(at: pick(0..<state.galleries[gallery].images.count))
            state.galleries[gallery].images.insert(image, at: pick(0..<state.galleries[gallery].images.count + 1))
        case 5:
            guard let from = filled.randomElement(using: &random) else { return state }
            let image = state.galleries[from].images.remove(at: pick(0..<state.galleries[from].images.count))
            let to = pick(0..<state.galleries.count)
            state.galleries[to].images.insert(image, at: pick(0..<state.galleries[to].images.count + 1))
        case 6:
            guard let gallery = filled.randomElement(using: &random) else { return state }
            let index = pick(0..<state.galleries[gallery].images.count)
            state.galleries[gallery].images[index].tags = pick(0..<3) == 0 ? [] : ["tag\(pick(0..<5))", "cats/grey"]
        case 7:
            guard let gallery = filled.randomElement(using: &random) else { return state }
            let index = pick(0..<state.galleries[gallery].images.count)
            state.galleries[gallery].images[index].note = pick(0..<4) == 0 ? nil : "note \(fresh)"
        case 8:
            guard let gallery = filled.randomElement(using: &random) else { return state }
            let index = pick(0..<state.galleries[gallery].images.count)
            state.galleries[gallery].images[index].unknownFields["future"] = RawJSON(.array([.number(computer.made)]))
        case 9:
            guard !state.galleries.isEmpty else { return state }
            state.galleries[pick(0..<state.galleries.count)].name = "Name \(fresh)"
        case 10:
            state.galleries.insert(
                Gallery(id: "g-\(fresh)", name: "New \(fresh)"), at: pick(0..<state.galleries.count + 1))
        case 11:
            guard state.galleries.count > 1 else { return state }
            state.galleries.remove(at: pick(0..<state.galleries.count))
        case 12:
            guard !state.galleries.isEmpty else { return state }
            let gallery = state.galleries.remove(at: pick(0..<state.galleries.count))
            state.galleries.insert(gallery, at: pick(0..<state.galleries.count + 1))
        default:
            switch pick(0..<4) {
            case 0: state.sidebarVisible = pick(0..<2) == 0
            case 1: state.shownGalleryID = state.galleries.randomElement(using: &random)?.id
            case 2: state.playAnimations = pick(0..<3) == 0 ? nil : true
            default:
                state.smartGalleries.append(
                    SmartGallery(id: "s-\(fresh)", name: "Cats", query: SearchQuery(text: "cat")))
            }
        }
        return state
    }
}

private let start = GalleryState(galleries: [
    Gallery(
        id: "g1", name: "Cats",
        images: (0..<6).map { GalleryImage(id: ImageID("i\($0)"), url: "https://e.org/\($0).png", aspectRatio: 1) }),
    Gallery(
        id: "g2", name: "Kitchen",
        images: (6..<9).map { GalleryImage(id: ImageID("i\($0)"), url: "https://e.org/\($0).png", aspectRatio: 2) }),
    Gallery(id: "g3", name: "Empty"),
])

/// Every order of `items`.
private func permutations<Item>(_ items: [Item]) -> [[Item]] {
    guard items.count > 1 else { return [items] }
    return items.indices.flatMap { index in
        var rest = items
        let first = rest.remove(at: index)
        return permutations(rest).map { [first] + $0 }
    }
}

@Suite("The journal's logs merge to one library in any order")
struct JournalConvergenceTests {
    /// Computers editing apart and exchanging their logs now and then, with snapshots taken along the way.
    private func run(seed: UInt64, computers count: Int, steps: Int) -> (
        [Computer], base: LibraryReplica, snapshots: [JournalSnapshot]
    ) {
        let base = LibraryReplica(carryingOver: start, by: "alpha")
        var computers = ["alpha", "bravo", "charlie"].prefix(count).map { Computer(id: $0, replica: base) }
        var editor = Editor(random: SplitMix64(seed: seed))
        var snapshots: [JournalSnapshot] = []
        for _ in 0..<steps {
            let who = editor.pick(0..<count)
            switch editor.pick(0..<10) {
            case 0:
                let from = editor.pick(0..<count)
                if from != who { computers[who].takeIn(computers[from]) }
            case 1: snapshots.append(computers[who].snapshot)
            default:
                let new = editor.edit(computers[who].state, by: &computers[who])
                computers[who].edit(new)
            }
        }
        return (computers, base, snapshots)
    }

    @Test(arguments: 0..<12 as Range<UInt64>)
    func logsReplayedInEveryOrderGiveOneLibrary(seed: UInt64) throws {
        let (computers, base, snapshots) = run(seed: seed, computers: seed % 2 == 0 ? 3 : 2, steps: 160)
        let logs = computers.map { JournalLog.read($0.log) }
        for log in logs { #expect(log.stop == nil && log.skipped == 0) }

        var replicas: [LibraryReplica] = []
        for order in permutations(Array(logs.indices)) {
            var replica = base
            for index in order { for entry in logs[index].entries { replica.apply(entry) } }
            replicas.append(replica)
        }
        // Entries interleaved at random, some twice, and the carried-over library taken in last.
        var random = SplitMix64(seed: seed &+ 99)
        var all = logs.flatMap(\.entries)
        all += all.prefix(all.count / 3)
        all.shuffle(using: &random)
        var shuffled = LibraryReplica()
        for entry in all { shuffled.apply(entry) }
        shuffled.merge(base)
        replicas.append(shuffled)
        // Every computer, once it has read the others' logs.
        for var computer in computers {
            for other in computers where other.id != computer.id { computer.takeIn(other) }
            replicas.append(computer.replica)
        }
        let expected = replicas[0].state
        #expect(expected.galleries.contains { !$0.images.isEmpty })
        for replica in replicas {
            #expect(replica == replicas[0])
            #expect(replica.state == expected)
        }
        // A snapshot taken at any point, read back, with every log read from where it stops covering.
        for snapshot in snapshots {
            var replica = try #require(JournalSnapshot.decode(snapshot.encoded)).replica
            #expect(replica == snapshot.replica)
            for (computer, log) in zip(computers, logs) {
                let read = JournalLog.read(computer.log, from: snapshot.covers[computer.id] ?? 0)
                for entry in read.entries { replica.apply(entry) }
                #expect(read.entries.count <= log.entries.count)
            }
            #expect(replica.state == expected)
        }
    }

    @Test func aNoteOnOneComputerAndATagOnTheOtherBothSurvive() {
        let base = LibraryReplica(carryingOver: start, by: "alpha")
        var one = Computer(id: "alpha", replica: base)
        var other = Computer(id: "bravo", replica: base)
        var noted = one.state
        noted.galleries[0].images[2].note = "For the kitchen wall"
        one.edit(noted)
        var tagged = other.state
        tagged.galleries[0].images[2].tags = ["cats/grey"]
        let image = tagged.galleries[0].images.remove(at: 2)
        tagged.galleries[1].images.append(image)
        other.edit(tagged)
        one.takeIn(other)
        other.takeIn(one)
        #expect(one.state == other.state)
        let merged = one.state.galleries[1].images.last
        #expect(merged?.note == "For the kitchen wall" && merged?.tags == ["cats/grey"])
    }

    @Test func aGalleryDeletedWhileTheOtherComputerMovedAnImageIntoItShowsWithThatImage() {
        let base = LibraryReplica(carryingOver: start, by: "alpha")
        var one = Computer(id: "alpha", replica: base)
        var other = Computer(id: "bravo", replica: base)
        var deleted = one.state
        deleted.galleries.remove(at: 1)
        one.edit(deleted)
        var moved = other.state
        moved.galleries[1].images.append(moved.galleries[0].images.removeFirst())
        other.edit(moved)
        one.takeIn(other)
        other.takeIn(one)
        #expect(one.state == other.state)
        #expect(one.state.galleries.map(\.id) == ["g1", "g2", "g3"])
        #expect(one.state.galleries[1].images.map(\.id) == [ImageID("i0")])
        // Moving the gallery that shows again leaves the images its deletion hid hidden.
        var reordered = one.state
        reordered.galleries.swapAt(0, 1)
        one.edit(reordered)
        #expect(one.state.galleries[0].images.map(\.id) == [ImageID("i0")])
    }

    @Test func anUndoneDeletionOfAGalleryBringsItBackWithItsImages() {
        var computer = Computer(id: "alpha", replica: LibraryReplica(carryingOver: start, by: "alpha"))
        var deleted = computer.state
        deleted.galleries.remove(at: 0)
        computer.edit(deleted)
        computer.edit(start)
        #expect(computer.state == start)
    }
}
