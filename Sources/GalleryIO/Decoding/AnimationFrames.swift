import Foundation
import GLibKit
import GalleryCore
import Synchronization

/// The frames of one playing animation, decoded on the CPU lane a few at a time ahead of the one that shows
/// (`FrameBudget`), all of them only when they fit its budget: the GTK thread only takes a frame that is ready. A
/// frame that takes more processor time than `ImageLimits.frameDecodeMilliseconds`, or that the decoder does not have
/// (a file cut short), ends the animation with the frame before it.
public final class AnimationFrames: Sendable {
    public let header: AnimationHeader
    public let budget: FrameBudget
    private let scheduler: JobScheduler
    /// The viewer's frames come before a cell's picture; a gallery's cells' frames do not.
    private let priority: JobPriority
    private let cancellation = CancellationToken()
    private let state: Mutex<State>

    private struct State {
        /// Nil while a job decodes with it.
        var decoder: (any FrameSource)?
        /// The frames that play, fewer than the header's once the decoder ended early.
        var frameCount: Int
        /// The first frame wanted: the one that shows next.
        var wanted = 0
        var ready: [Int: CairoSurface] = [:]
        var size: (width: Int, height: Int)
        var scale: Int
        var isDecoding = false
        /// Called on the GTK thread when the wanted frame is ready, or the animation ends early.
        var onChange: (@Sendable @MainActor () -> Void)?
    }

    init(
        header: AnimationHeader, decoder: any FrameSource, budget: FrameBudget, size: (width: Int, height: Int),
        scale: Int, scheduler: JobScheduler, priority: JobPriority
    ) {
        self.header = header
        self.priority = priority
        self.budget = budget
        self.scheduler = scheduler
        state = Mutex(
            State(decoder: decoder, frameCount: header.timing.frameCount, size: size, scale: scale))
    }

    /// The frames that play: the header's, or fewer once decoding found the file has fewer good ones.
    public var frameCount: Int { state.withLock { $0.frameCount } }

    /// `action` runs on the GTK thread whenever the wanted frame becomes ready or the frame count drops.
    public func onChange(_ action: @escaping @Sendable @MainActor () -> Void) {
        state.withLock { $0.onChange = action }
    }

    /// The frame `index` if it is decoded.
    public func frame(_ index: Int) -> CairoSurface? {
        state.withLock { $0.ready[index] }
    }

    /// `index` shows next: it and the frames after it are decoded (as many as the budget holds), the others let go.
    public func want(_ index: Int) {
        let start = state.withLock { state -> Bool in
            state.wanted = index
            let window = Self.window(from: index, count: budget.framesAhead, of: state.frameCount)
            let kept = Set(window)
            state.ready = state.ready.filter { kept.contains($0.key) }
            // Every frame of the window held (an animation held whole, after its first play): nothing to decode.
            guard !state.isDecoding, window.contains(where: { state.ready[$0] == nil }) else { return false }
            state.isDecoding = true
            return true
        }
        if start { submitDecode() }
    }

    /// Frames made from now on are `width`×`height` pixels (the zoom changed); the ready ones stay.
    public func resize(width: Int, height: Int, scale: Int) {
        state.withLock {
            $0.size = (max(width, 1), max(height, 1))
            $0.scale = max(scale, 1)
        }
    }

    /// Stops decoding; the frames are let go with this object.
    public func stop() {
        cancellation.cancel()
        state.withLock {
            $0.onChange = nil
            $0.ready = [:]
        }
    }

    /// `count` frames from `start` in the order they play, around the end.
    private static func window(from start: Int, count: Int, of frameCount: Int) -> [Int] {
        guard frameCount > 0 else { return [] }
        return (0..<min(max(count, 1), frameCount)).map { (start + $0) % frameCount }
    }

    private func submitDecode() {
        scheduler.submit(.cpu, priority, cancellation: cancellation) { [self] in decodeNext() }
    }

    /// Decodes the first wanted frame not yet ready, then queues itself again (other jobs go between).
    private func decodeNext() {
        let job = state.withLock { state -> (any FrameSource, Int, (width: Int, height: Int), Int)? in
            let missing = Self.window(from: state.wanted, count: budget.framesAhead, of: state.frameCount)
                .first { state.ready[$0] == nil }
            guard let missing, let decoder = state.decoder, !cancellation.isCancelled else {
                state.isDecoding = false
                return nil
            }
            state.decoder = nil
            return (decoder, missing, state.size, state.scale)
        }
        guard let (decoder, index, size, scale) = job else { return }
        // Processor time, not wall time: a loaded machine makes a frame late, not a hostile one.
        let started = ThreadTime.now()
        // In order, as the frames compose: back to the first one for a frame behind the decoder.
        let sequential = decoder.position == index || decoder.position + 1 == index
        if decoder.position > index { decoder.restart() }
        var reached = true
        while reached && decoder.position < index { reached = decoder.advance() }
        let surface = reached ? decoder.frame(width: size.width, height: size.height, scale: scale) : nil
        let tooSlow =
            sequential && ThreadTime.now() - started > .milliseconds(ImageLimits.frameDecodeMilliseconds)
        let notify = state.withLock { state -> (@Sendable @MainActor () -> Void)? in
            state.decoder = decoder
            guard let surface, !tooSlow else {
                state.frameCount = max(min(state.frameCount, index), 1)
                state.ready = state.ready.filter { $0.key < state.frameCount }
                return state.onChange
            }
            let window = Self.window(from: state.wanted, count: budget.framesAhead, of: state.frameCount)
            guard window.contains(index) else { return nil }
            state.ready[index] = surface
            return index == state.wanted ? state.onChange : nil
        }
        if let notify, !cancellation.isCancelled { MainContext.post { notify() } }
        submitDecode()
    }
}
