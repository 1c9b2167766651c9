import CGLib
import CGdkPixbuf
import CShim
import Foundation

/// gdk-pixbuf's incremental loader, fed on the calling thread: the size is told (`sizePrepared`) before
/// any pixel is decoded, and the loader decodes at the size that handler decides, or nothing at all.
public final class PixbufLoader {
    /// What `size-prepared` reports: the file's size and its format.
    public struct Prepared {
        public let width: Int
        public let height: Int
        /// gdk-pixbuf's name for the format ("png", "jpeg", "svg"…).
        public let formatName: String?
        /// A vector format, drawn at whatever size is asked.
        public let isScalable: Bool
    }

    /// What the loader should decode.
    public enum SizeDecision {
        case asIs
        case scaled(width: Int, height: Int)
        /// Nothing: the loader decodes a 1×1 stand-in and the caller stops feeding it.
        case refused
    }

    /// Why the loader failed, in gdk-pixbuf's words.
    public struct Failure {
        public let message: String
        /// No loader knows the bytes.
        public let isUnknownFormat: Bool
    }

    private let loader: UnsafeMutablePointer<GdkPixbufLoader>
    public private(set) var failure: Failure?

    /// - Parameter sizePrepared: called once, on this thread, during a `write`.
    public init(sizePrepared: @escaping (Prepared) -> SizeDecision) {
        loader = gdk_pixbuf_loader_new()!
        let box = SizePreparedHandler { loader, width, height in
            let format = gdk_pixbuf_loader_get_format(loader)
            let name = format.flatMap { gdk_pixbuf_format_get_name($0) }
            defer { g_free(name) }
            let prepared = Prepared(
                width: Int(width), height: Int(height), formatName: name.map { String(cString: $0) },
                isScalable: format.map { gdk_pixbuf_format_is_scalable($0) != 0 } ?? false)
            switch sizePrepared(prepared) {
            case .asIs: break
            case .scaled(let width, let height): gdk_pixbuf_loader_set_size(loader, gint(width), gint(height))
            case .refused: gdk_pixbuf_loader_set_size(loader, 1, 1)
            }
        }
        let trampoline: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, gint, gint, gpointer?) -> Void = {
            loader, width, height, userData in
            Unmanaged<SizePreparedHandler>.fromOpaque(userData!).takeUnretainedValue().handle(loader!, width, height)
        }
        cshim_signal_connect(
            loader, "size-prepared", unsafeBitCast(trampoline, to: GCallback.self),
            Unmanaged.passRetained(box).toOpaque(),
            { userData, _ in Unmanaged<SizePreparedHandler>.fromOpaque(userData!).release() })
    }

    deinit { g_object_unref(loader) }

    /// Hands `bytes` to the decoder; false when it failed (see `failure`).
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.bindMemory(to: guchar.self).baseAddress else { return true }
        var error: UnsafeMutablePointer<GError>?
        if gdk_pixbuf_loader_write(loader, base, gsize(bytes.count), &error) != 0 { return true }
        record(error)
        return false
    }

    /// Ends the input (required, also after a failed write); false when the loader failed then.
    public func close() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        if gdk_pixbuf_loader_close(loader, &error) != 0 { return true }
        record(error)
        return false
    }

    /// The first error is the one kept: a close after a failed write only repeats it.
    private func record(_ error: UnsafeMutablePointer<GError>?) {
        guard let error else { return }
        defer { g_error_free(error) }
        guard failure == nil else { return }
        failure = Failure(
            message: String(cString: error.pointee.message),
            isUnknownFormat: error.pointee.domain == gdk_pixbuf_error_quark()
                && error.pointee.code == GDK_PIXBUF_ERROR_UNKNOWN_TYPE.rawValue)
    }

    /// The decoded picture turned upright as its EXIF orientation says, once there is one, and whether
    /// that turned it a quarter (its width and height swapped).
    public var upright: (pixbuf: Pixbuf, quarterTurned: Bool)? {
        guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader),
            let oriented = gdk_pixbuf_apply_embedded_orientation(pixbuf)
        else { return nil }
        let upright = Pixbuf(taking: oriented)
        return (upright, upright.width != Int(gdk_pixbuf_get_width(pixbuf)))
    }

    /// Whether the loader holds an animation whose first frame is complete (a second one has begun).
    public var hasWholeFirstFrame: Bool {
        guard let animation = gdk_pixbuf_loader_get_animation(loader),
            gdk_pixbuf_animation_is_static_image(animation) == 0,
            let frames = gdk_pixbuf_animation_get_iter(animation, nil)
        else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(frames)) }
        return gdk_pixbuf_animation_iter_on_currently_loading_frame(frames) == 0
    }
}

/// The `size-prepared` handler of one loader, which runs on the thread that feeds it: not a main-actor
/// callback, so not in a `CallbackBox`. Released by the signal's destroy notify.
private final class SizePreparedHandler {
    let handle: (UnsafeMutablePointer<GdkPixbufLoader>, gint, gint) -> Void
    init(_ handle: @escaping (UnsafeMutablePointer<GdkPixbufLoader>, gint, gint) -> Void) { self.handle = handle }
}
