import GalleryCore

/// The processor time this thread spends.
struct ThreadProcessorClock {
    func measure(_ body: () -> Void) -> Duration {
        let start = ThreadTime.now()
        body()
        return ThreadTime.now() - start
    }
}
