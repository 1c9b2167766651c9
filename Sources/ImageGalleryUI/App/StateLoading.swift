import Dispatch
import GalleryCore
import GalleryIO
import Synchronization

/// Reads and decodes the state file as a job started before GTK is: a large library takes longer to
/// decode than GTK takes to start.
final class StateLoading: Sendable {
    let store: StateStore
    private let loaded = Mutex<StateStore.LoadResult?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(store: StateStore, scheduler: JobScheduler) {
        self.store = store
        scheduler.submit(.io, .visible) { [self] in
            let result = store.load()
            loaded.withLock { $0 = result }
            done.signal()
        }
    }

    /// Waits for the load (on a launch, the time GTK took to start was the head start).
    func result() -> StateStore.LoadResult {
        done.wait()
        done.signal()
        return loaded.withLock { $0! }
    }
}
