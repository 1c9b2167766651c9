import Dispatch
import GalleryCore
import GalleryIO
import Synchronization

/// Reads and decodes the state file, and prepares the library from it, as a job started before GTK is:
/// a large library takes longer to decode than GTK takes to start.
final class StateLoading: Sendable {
    let store: StateStore
    private let loaded = Mutex<Loaded?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// What the file held, its version noted before it was read (a sync tool may put another over it before the
    /// saver exists), and the library made of it.
    typealias Loaded = (
        result: StateStore.LoadResult, revision: StateStore.Revision?, prepared: GalleryLibrary.Prepared?
    )

    init(store: StateStore, scheduler: JobScheduler) {
        self.store = store
        scheduler.submit(.io, .visible) { [self] in
            let revision = store.revision()
            let result = store.load()
            let prepared = result.state.map(GalleryLibrary.Prepared.init)
            loaded.withLock { $0 = (result, revision, prepared) }
            done.signal()
        }
    }

    /// Waits for the load (on a launch, the time GTK took to start was the head start): what the file held,
    /// and the library made of it when it held one.
    func result() -> Loaded {
        done.wait()
        done.signal()
        return loaded.withLock { $0! }
    }
}
