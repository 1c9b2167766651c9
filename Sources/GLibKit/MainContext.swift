import CGLib
import CShim
import Foundation
import Synchronization

/// Hops onto the GTK main loop. Workers use it to hand results back; nothing else touches widgets.
public enum MainContext {
    public typealias Work = @Sendable @MainActor () -> Void

    /// Runs `work` on the main loop soon, after what was posted before it; callable from any thread.
    public static func post(_ work: @escaping Work) {
        Posted.queue.append(work)
    }

    /// Runs `work` once after `milliseconds`; returns the source id for `cancel`.
    @discardableResult
    public static func after(milliseconds: UInt32, _ work: @escaping Work) -> UInt32 {
        let box = CallbackBox<Work>(work)
        return g_timeout_add_full(
            G_PRIORITY_DEFAULT, milliseconds,
            { userData in
                let box = CallbackBox<Work>.from(userData: userData)
                onMain { box.handler() }
                return gboolean(G_SOURCE_REMOVE)
            }, box.retainedPointer, CallbackBox<Work>.destroyNotify)
    }

    public static func cancel(_ source: UInt32) {
        if source != 0 { g_source_remove(source) }
    }

    /// Monotonic time in microseconds, as the frame clock counts it.
    public static var monotonicMicroseconds: Int { g_get_monotonic_time() }
}

/// What a GLib source's callback returns to be called again: `G_SOURCE_CONTINUE`, which GLib writes as
/// `(!FALSE)`, an expression Swift does not import.
package let sourceContinue: gboolean = 1

/// What workers hand to the main loop, run there in the order it was handed over, in batches that
/// leave room for a frame. Workers push onto a lock-free stack and wake the main loop through an
/// eventfd it polls; the main loop takes the whole stack at once.
private final class Posted: Sendable {
    static let queue = Posted()

    /// `next` is written only before the node is published, by the one thread that pushes it.
    private final class Node: @unchecked Sendable {
        let work: MainContext.Work
        var next: Unmanaged<Node>?
        init(_ work: @escaping MainContext.Work) { self.work = work }
    }

    /// The newest work first; nil when nothing waits.
    private let newest = Atomic<Unmanaged<Node>?>(nil)
    private let wakeup: gint
    /// Taken from the stack but not run yet (the previous turn ran out of time); main loop only.
    @MainActor private static var leftOver: ArraySlice<MainContext.Work> = []

    private init() {
        wakeup = cshim_wakeup_new()
        g_unix_fd_add_full(
            G_PRIORITY_DEFAULT_IDLE, wakeup, G_IO_IN,
            { _, _, _ in
                onMain { Posted.queue.runSome() }
                return sourceContinue
            }, nil, nil)
    }

    func append(_ work: @escaping MainContext.Work) {
        let node = Unmanaged.passRetained(Node(work))
        var head = newest.load(ordering: .relaxed)
        while true {
            node._withUnsafeGuaranteedRef { $0.next = head }
            let (exchanged, current) = newest.weakCompareExchange(
                expected: head, desired: node, successOrdering: .releasing, failureOrdering: .relaxed)
            if exchanged { break }
            head = current
        }
        // The first onto an empty stack wakes the main loop; the others find it awake.
        if head == nil { cshim_wakeup_signal(wakeup) }
    }

    /// Runs queued work for up to 4 ms, so a frame never waits behind a long queue; what is left
    /// runs at the loop's next turn.
    @MainActor
    func runSome() {
        // Cleared before the stack is taken: work pushed after this signals again.
        cshim_wakeup_clear(wakeup)
        var taken: [MainContext.Work] = []
        var node = newest.exchange(nil, ordering: .acquiring)
        while let current = node {
            taken.append(current.takeUnretainedValue().work)
            node = current.takeUnretainedValue().next
            current.release()
        }
        var batch = Self.leftOver + taken.reversed()
        let deadline = g_get_monotonic_time() + 4000
        while let work = batch.popFirst() {
            work()
            if g_get_monotonic_time() >= deadline, !batch.isEmpty { break }
        }
        Self.leftOver = batch
        if !batch.isEmpty { cshim_wakeup_signal(wakeup) }
    }
}
