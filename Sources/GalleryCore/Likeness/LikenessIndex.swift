import Synchronization

/// The library's fingerprints, indexed (`LikenessSnapshot`) and kept up to date with every change (an image
/// added, deleted, merged, measured, or changed by another computer): each change has a worker index the
/// galleries' cells again, one build at a time, so the GTK thread never walks the library. A look-up waits for
/// the build of the latest change, so it always sees the library as it is.
@MainActor
public final class LikenessIndex {
    /// Runs `work` on a worker, then `then` back here.
    public typealias OffThread = (_ work: @escaping @Sendable () -> Void, _ then: @escaping @MainActor () -> Void) ->
        Void

    private unowned let library: GalleryLibrary
    private let offThread: OffThread
    /// The index of the library as it was at the latest build; nil before the first.
    public private(set) var snapshot: LikenessSnapshot?
    /// Whether the library changed since the build that made `snapshot` (or the one running) began.
    private var stale = true
    private var building = false
    /// Look-ups that wait for the build of the latest change.
    private var waiting: [@MainActor (LikenessSnapshot) -> Void] = []
    private var observation: Observation?
    /// How many builds have finished, for tests and benchmarks.
    public private(set) var buildCount = 0

    /// An index of `library`, built first when a look-up asks (or `build` is called).
    public init(library: GalleryLibrary, offThread: @escaping OffThread) {
        self.library = library
        self.offThread = offThread
        observation = library.observe { [weak self] change in
            switch change {
            case .cells, .galleries: self?.libraryChanged()
            case .progress, .placeholdersDiscarded, .history: break
            }
        }
    }

    /// Whether `snapshot` holds the library as it is now.
    public var isCurrent: Bool { snapshot != nil && !stale && !building }

    /// Calls `body` with the index of the library as it is now, once a worker has built it.
    public func withCurrent(_ body: @escaping @MainActor (LikenessSnapshot) -> Void) {
        if isCurrent, let snapshot { return body(snapshot) }
        waiting.append(body)
        build()
    }

    /// The images that look like `likeness`, nearest first, found on a worker in the library as it is now; those
    /// in `excluded` (the image itself) left out.
    public func nearDuplicates(
        of likeness: Likeness, excluding excluded: Set<ImageID> = [],
        then: @escaping @MainActor ([(id: ImageID, distance: Int)]) -> Void
    ) {
        withCurrent { [offThread] snapshot in
            let found = Mutex<[(id: ImageID, distance: Int)]>([])
            offThread(
                {
                    let images = snapshot.images(within: Likeness.nearDuplicateDistance, of: likeness.fingerprint)
                    found.withLock { $0 = images.filter { !excluded.contains($0.id) } }
                },
                { then(found.withLock { $0 }) })
        }
    }

    /// Builds the index on a worker if the library changed since the last build, and again if it changes meanwhile.
    public func build() {
        guard stale, !building else { return }
        stale = false
        building = true
        let cells = library.galleries.map { library.cells(of: $0.id) }
        let built = Mutex(LikenessSnapshot.empty)
        offThread(
            { built.withLock { $0 = LikenessSnapshot(cells) } },
            { [weak self] in
                guard let self else { return }
                building = false
                buildCount += 1
                snapshot = built.withLock { $0 }
                guard !stale else { return build() }
                let bodies = waiting
                waiting = []
                for body in bodies { body(snapshot!) }
            })
    }

    private func libraryChanged() {
        stale = true
        // Only once someone has asked: an index nobody reads is not kept.
        if snapshot != nil || !waiting.isEmpty { build() }
    }
}
