import Synchronization

/// The library's fingerprints, indexed (`FingerprintIndex`) and kept up to date with every change (an image added,
/// deleted, merged, measured, or changed by another computer): built whole on a worker when first asked, then
/// changed in place on a worker, one change at a time, where the changed galleries' cells differ from what it
/// holds. The index numbers the library's cells gallery by gallery, so it keeps no ids: a number found is the cell
/// at that place, read here while nothing changed since. A look-up waits for the latest change to be taken up, so it
/// always sees the library as it is.
@MainActor
public final class LikenessIndex {
    /// Runs `work` on a worker, then `then` back here.
    public typealias OffThread = (_ work: @escaping @Sendable () -> Void, _ then: @escaping @MainActor () -> Void) ->
        Void

    /// What the workers change and search: the index, and the galleries whose cells it numbers, in order.
    struct Store: Sendable {
        var index = FingerprintIndex([])
        var galleries: [(id: String, count: Int)] = []
    }

    /// The store behind its lock, which the workers hold while they change or search it.
    final class Shared: Sendable {
        let store = Mutex(Store())
    }

    private unowned let library: GalleryLibrary
    private let offThread: OffThread
    private let shared = Shared()
    /// The galleries the store numbers as the last finished update left them; nil before the first.
    private var layout: [(id: String, count: Int)]?
    /// Whether the library changed since the update that made `layout` (or the one running) began.
    private var stale = true
    private var updating = false
    /// The galleries whose cells changed since the running update began (or the last, when none runs).
    private var changed: Set<String> = []
    /// Grows with each change of the library: an answer found before one is asked again.
    private var generation = 0
    /// Look-ups that wait for the latest change to be taken up.
    private var waiting: [@MainActor () -> Void] = []
    private var observation: Observation?
    /// How many times the index was built whole (once, at the first look-up), and how many changes it took up in
    /// place since, for tests and benchmarks.
    public private(set) var buildCount = 0
    public private(set) var updateCount = 0

    /// An index of `library`, built first when a look-up asks (or `build` is called).
    public init(library: GalleryLibrary, offThread: @escaping OffThread) {
        self.library = library
        self.offThread = offThread
        observation = library.observe { [weak self] change in
            switch change {
            case .cells(let galleryID): self?.libraryChanged(galleryID)
            case .galleries: self?.libraryChanged(nil)
            case .progress, .placeholdersDiscarded, .history: break
            }
        }
    }

    /// Whether the index holds the library as it is now.
    public var isCurrent: Bool { layout != nil && !stale && !updating }

    /// Calls `body` once the index holds the library as it is now.
    private func withCurrent(_ body: @escaping @MainActor () -> Void) {
        if isCurrent { return body() }
        waiting.append(body)
        build()
    }

    /// The images that look like `likeness`, nearest first, then in library order, found on a worker in the library
    /// as it is now; those in `excluded` (the image itself) left out.
    public func nearDuplicates(
        of likeness: Likeness, excluding excluded: Set<ImageID> = [],
        then: @escaping @MainActor ([(id: ImageID, distance: Int)]) -> Void
    ) {
        withCurrent { [weak self, offThread, shared] in
            guard let generation = self?.generation else { return }
            let found = Mutex<[(number: Int, distance: Int)]>([])
            offThread(
                {
                    let numbers = shared.store.withLock { store in
                        store.index.numbers(within: Likeness.nearDuplicateDistance, of: likeness.fingerprint).map {
                            (number: $0, distance: store.index[$0]!.distance(to: likeness.fingerprint))
                        }
                    }
                    found.withLock { $0 = numbers.sorted { ($0.distance, $0.number) < ($1.distance, $1.number) } }
                },
                { [weak self] in
                    guard let self else { return }
                    // The numbers name cells only while nothing changed.
                    guard generation == self.generation else {
                        return nearDuplicates(of: likeness, excluding: excluded, then: then)
                    }
                    let images = found.withLock { $0 }.map { (id: id(at: $0.number), distance: $0.distance) }
                    then(images.filter { !excluded.contains($0.id) })
                })
        }
    }

    /// More Like This: the library's images whose fingerprints are within `LookAlikes.farthestDistance` of
    /// `fingerprint`, nearest first (in library order among equals), at most `LookAlikes.mostShown`, image `excluded`
    /// left out, found on a worker in the library as it is now; each run of one gallery's images under its name.
    public func lookAlikes(
        of fingerprint: Fingerprint, excluding excluded: ImageID, then: @escaping @MainActor (SearchResults) -> Void
    ) {
        withCurrent { [weak self, offThread, shared] in
            guard let generation = self?.generation else { return }
            let found = Mutex<[(number: Int, distance: Int)]>([])
            offThread(
                {
                    // One more than shown, in case the image itself is among them.
                    let nearest = shared.store.withLock {
                        $0.index.nearest(LookAlikes.mostShown + 1, within: LookAlikes.farthestDistance, of: fingerprint)
                    }
                    found.withLock { $0 = nearest }
                },
                { [weak self] in
                    guard let self else { return }
                    // The numbers name cells only while nothing changed.
                    guard generation == self.generation else {
                        return lookAlikes(of: fingerprint, excluding: excluded, then: then)
                    }
                    then(
                        SearchResults(lookAlikes: places(of: found.withLock { $0 }.map(\.number), excluding: excluded)))
                })
        }
    }

    /// Where the cells numbered `numbers` stand, in that order, while the index holds the library as it is: the first
    /// `LookAlikes.mostShown` of them other than image `excluded`.
    private func places(of numbers: [Int], excluding excluded: ImageID) -> [(
        sectionIndex: Int, galleryID: String, name: String, position: Int, id: ImageID
    )] {
        let galleries = library.galleries
        var starts: [Int] = []
        var start = 0
        for gallery in layout ?? [] {
            starts.append(start)
            start += gallery.count
        }
        var cellsBySection: [Int: [GalleryCell]] = [:]
        var places: [(sectionIndex: Int, galleryID: String, name: String, position: Int, id: ImageID)] = []
        for number in numbers where places.count < LookAlikes.mostShown {
            // The last gallery that starts at or before the number (empty ones start where the next does).
            var low = 0
            var high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= number { low = middle } else { high = middle - 1 }
            }
            let position = number - starts[low]
            let cells = cellsBySection[low] ?? library.cells(of: galleries[low].id)
            cellsBySection[low] = cells
            let id = cells[position].id
            if id != excluded {
                places.append((low, galleries[low].id, galleries[low].name, position, id))
            }
        }
        return places
    }

    /// The id of the cell numbered `number`, while the index holds the library as it is.
    private func id(at number: Int) -> ImageID {
        var start = 0
        for gallery in layout ?? [] {
            if number < start + gallery.count { return library.cells(of: gallery.id)[number - start].id }
            start += gallery.count
        }
        preconditionFailure(untranslated("a number past the library's cells"))
    }

    /// Takes up the library's changes on a worker, if there are any, and again if it changes meanwhile: the first
    /// time by building the index, then by changing it where the changed galleries' cells differ.
    public func build() {
        guard stale, !updating else { return }
        stale = false
        updating = true
        let isFirst = layout == nil
        let galleries = library.galleries.map { gallery in
            (id: gallery.id, cells: library.cells(of: gallery.id), isChanged: isFirst || changed.contains(gallery.id))
        }
        changed = []
        let layout = Mutex<[(id: String, count: Int)]>([])
        offThread(
            { [shared] in
                let galleries = galleries
                layout.withLock { layout in
                    layout = shared.store.withLock { store in
                        if isFirst {
                            store = Store(galleries.map { ($0.id, $0.cells) })
                        } else {
                            store.update(galleries)
                        }
                        return store.galleries
                    }
                }
            },
            { [weak self] in
                guard let self else { return }
                updating = false
                if isFirst { buildCount += 1 } else { updateCount += 1 }
                self.layout = layout.withLock { $0 }
                guard !stale else { return build() }
                let bodies = waiting
                waiting = []
                for body in bodies { body() }
            })
    }

    /// `galleryID` changed its cells; nil: the list of galleries changed.
    private func libraryChanged(_ galleryID: String?) {
        stale = true
        generation += 1
        if let galleryID { changed.insert(galleryID) }
        // Only once someone has asked: an index nobody reads is not kept.
        if layout != nil || !waiting.isEmpty { build() }
    }
}

extension LikenessIndex.Store {
    /// The store of these galleries' cells, built whole.
    init(_ galleries: [(id: String, cells: [GalleryCell])]) {
        index = FingerprintIndex(galleries.flatMap { $0.cells.map(\.fingerprint) })
        self.galleries = galleries.map { ($0.id, $0.cells.count) }
    }

    /// Takes up the library's galleries as they are now: a gallery gone leaves its numbers, a new one takes its
    /// place's, and a changed one has the run of cells between what it still begins and ends with replaced. Galleries
    /// put in another order are numbered again from the first that moved.
    mutating func update(_ now: [(id: String, cells: [GalleryCell], isChanged: Bool)]) {
        let kept = Set(now.map(\.id))
        var start = index.count
        for gallery in galleries.reversed() {
            start -= gallery.count
            if !kept.contains(gallery.id) { index.replace(start..<start + gallery.count, with: []) }
        }
        galleries.removeAll { !kept.contains($0.id) }
        start = 0
        for (place, gallery) in now.enumerated() {
            if place < galleries.count, galleries[place].id == gallery.id {
                // A gallery not named changed keeps what it had, even if its cells changed since: the next update's.
                if gallery.isChanged {
                    replaceChanged(from: start, count: galleries[place].count, with: gallery.cells)
                    galleries[place].count = gallery.cells.count
                }
            } else {
                // New here: from what was at this place on, each old gallery is taken up again where it now is.
                let oldCount = galleries[place...].reduce(0) { $0 + $1.count }
                let rest = now[place...]
                index.replace(start..<start + oldCount, with: rest.flatMap { $0.cells.map(\.fingerprint) })
                galleries.replaceSubrange(place..., with: rest.map { ($0.id, $0.cells.count) })
                return
            }
            start += galleries[place].count
        }
    }

    /// The gallery whose cells the index numbers from `start`, `count` of them, takes up `cells`: the cells between
    /// the run it still begins with and the run it still ends with replace those the index held there.
    private mutating func replaceChanged(from start: Int, count: Int, with cells: [GalleryCell]) {
        var head = 0
        while head < count && head < cells.count && index[start + head] == cells[head].fingerprint { head += 1 }
        var tail = 0
        while tail < count - head && tail < cells.count - head
            && index[start + count - 1 - tail] == cells[cells.count - 1 - tail].fingerprint
        {
            tail += 1
        }
        index.replace(
            start + head..<start + count - tail, with: cells[head..<cells.count - tail].map(\.fingerprint))
    }
}

extension GalleryCell {
    /// The fingerprint of the cell's image; nil for a placeholder or an image not measured yet.
    fileprivate var fingerprint: Fingerprint? {
        guard case .image(let image) = content else { return nil }
        return image.likeness?.fingerprint
    }
}
