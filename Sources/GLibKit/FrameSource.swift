/// A decoder that walks an animation's frames in order, composing each on its canvas: what `AnimationFrames` decodes
/// ahead with. Sendable only to be handed over: its owner's lock lets one thread at a time use it.
public protocol FrameSource: AnyObject, Sendable {
    /// The frame the source is at, counted from 0.
    var position: Int { get }
    /// Back at the first frame.
    func restart()
    /// On to the next frame; false when the current one is the last the source has (a file cut short or damaged
    /// there).
    func advance() -> Bool
    /// The current frame at `width`×`height` pixels for a device `scale`, in a surface of its own that any thread
    /// may make; nil when the source has no pixels there.
    func frame(width: Int, height: Int, scale: Int) -> CairoSurface?
}
