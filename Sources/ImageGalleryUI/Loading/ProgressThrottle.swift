import Foundation
import Synchronization

/// Lets through whole-percent steps at most ten times a second, and the end, so a hundred transfers
/// at once do not flood the GTK thread.
final class ProgressThrottle: Sendable {
    private struct Reported {
        var fraction = -1.0
        var time = 0.0
    }

    private let last = Mutex(Reported())

    func shouldReport(_ fraction: Double) -> Bool {
        let now = ProcessInfo.processInfo.systemUptime
        return last.withLock { last in
            let finished = fraction >= 1 && last.fraction < 1
            guard finished || (fraction - last.fraction >= 0.01 && now - last.time >= 0.1) else { return false }
            last = Reported(fraction: fraction, time: now)
            return true
        }
    }
}
