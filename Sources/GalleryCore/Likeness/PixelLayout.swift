/// How a row of pixels holds its channels: what the decoder's pixbufs and cairo's surfaces hand over.
public enum PixelLayout: Sendable {
    /// Red, green, blue, a byte each (a pixbuf without alpha).
    case rgb
    /// Red, green, blue and alpha, not premultiplied (a pixbuf with alpha).
    case rgba
    /// Cairo's ARGB32 on a little-endian machine: blue, green, red, alpha, premultiplied.
    case premultipliedBGRA

    /// Bytes a pixel takes.
    public var bytesPerPixel: Int { self == .rgb ? 3 : 4 }
}
