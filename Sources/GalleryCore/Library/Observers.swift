/// The subscribers to one source of events: each hears every event, in the order it subscribed,
/// for as long as its `Observation` lives. Not thread safe: it belongs to its owner's thread.
public final class Observers<Event> {
    private var handlers: [Int: (Event) -> Void] = [:]
    private var nextKey = 0

    public init() {}

    /// Calls `handler` for every event until the returned observation is cancelled or released.
    public func add(_ handler: @escaping (Event) -> Void) -> Observation {
        let key = nextKey
        nextKey += 1
        handlers[key] = handler
        return Observation { [weak self] in self?.handlers[key] = nil }
    }

    /// A handler that unsubscribes another while this runs keeps that one from hearing it.
    public func send(_ event: Event) {
        for key in handlers.keys.sorted() { handlers[key]?(event) }
    }
}

/// Keeps an observer subscribed while it lives; `cancel()` (or releasing it) unsubscribes.
public final class Observation {
    private var onCancel: (() -> Void)?

    init(onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    public func cancel() {
        onCancel?()
        onCancel = nil
    }

    deinit { cancel() }
}

/// Both belong to the thread of what they observe: the compiler keeps them there.
@available(*, unavailable)
extension Observers: Sendable {}

@available(*, unavailable)
extension Observation: Sendable {}
