import CGLib
import CGdkPixbuf
import CShim
import Foundation

/// An animation gdk-pixbuf has read (a GIF), walked one frame after another on a clock of its own: a frame is
/// composed only when it is asked for. Sendable only to be handed over: its owner's lock lets one thread at a time
/// use it.
public final class PixbufAnimation: FrameSource, @unchecked Sendable {
    private let animation: OpaquePointer
    private var iterator: OpaquePointer
    private var clock: gint64 = 0
    /// The frame the iterator is at, counted from 0.
    public private(set) var position = 0

    private init(taking animation: OpaquePointer) {
        self.animation = animation
        iterator = cshim_animation_iter_new(animation)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(iterator))
        g_object_unref(UnsafeMutableRawPointer(animation))
    }

    /// The animation in `bytes`, fed to gdk-pixbuf `chunkSize` bytes at a time until they end, the loader fails (a
    /// file cut short: the frames read so far stay) or `deadline` passes (the same); nil when no animation came of
    /// them. The caller has checked the canvas size its header states.
    public static func read(_ bytes: Data, chunkSize: Int = 64 * 1024, until deadline: ContinuousClock.Instant)
        -> PixbufAnimation?
    {
        let loader = gdk_pixbuf_loader_new()!
        defer { g_object_unref(loader) }
        bytes.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: guchar.self)
            var offset = 0
            while offset < buffer.count && ContinuousClock.now < deadline {
                let count = min(chunkSize, buffer.count - offset)
                var error: UnsafeMutablePointer<GError>?
                guard gdk_pixbuf_loader_write(loader, buffer.baseAddress! + offset, gsize(count), &error) != 0 else {
                    g_error_free(error)
                    break
                }
                offset += count
            }
        }
        // Closing is required even after a failed write; an animation cut short keeps the frames it has.
        var error: UnsafeMutablePointer<GError>?
        if gdk_pixbuf_loader_close(loader, &error) == 0 { g_error_free(error) }
        guard let animation = gdk_pixbuf_loader_get_animation(loader),
            gdk_pixbuf_animation_is_static_image(animation) == 0
        else { return nil }
        g_object_ref(UnsafeMutableRawPointer(animation))
        return PixbufAnimation(taking: animation)
    }

    public var width: Int { Int(gdk_pixbuf_animation_get_width(animation)) }
    public var height: Int { Int(gdk_pixbuf_animation_get_height(animation)) }

    /// Back at the first frame.
    public func restart() {
        g_object_unref(UnsafeMutableRawPointer(iterator))
        iterator = cshim_animation_iter_new(animation)
        clock = 0
        position = 0
    }

    /// On to the next frame; false when the current one is the last the animation has.
    public func advance() -> Bool {
        guard cshim_animation_iter_next(iterator, &clock) != 0 else { return false }
        position += 1
        return true
    }

    /// The current frame at `width`×`height` pixels for a device `scale`, in a surface of its own that any thread
    /// may make; nil when the animation has no pixels there.
    public func frame(width: Int, height: Int, scale: Int) -> CairoSurface? {
        guard let pixels = gdk_pixbuf_animation_iter_get_pixbuf(iterator) else { return nil }
        g_object_ref(UnsafeMutableRawPointer(pixels))
        return Pixbuf(taking: pixels).surface(width: width, height: height, scale: scale)
    }
}
