import Dispatch
import Synchronization

/// Waits for a callback without holding a thread of Swift's pool; nil if none came within `seconds`, so
/// a callback that never comes fails its test instead of hanging the run. The wait is long: Dispatch's
/// global threads, which time it (and HTTPClient's retries), may be busy with other tests meanwhile.
func callback<Value: Sendable>(
    within seconds: Double = 60, _ start: (@escaping @Sendable (Value) -> Void) -> Void
) async -> Value? {
    await withCheckedContinuation { continuation in
        let waiting = Waiting(continuation)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { waiting.resume(nil) }
        start { waiting.resume($0) }
    }
}

/// A continuation resumed by whichever comes first, the callback or the timeout.
private final class Waiting<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value?, Never>?>

    init(_ continuation: CheckedContinuation<Value?, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ value: Value?) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
