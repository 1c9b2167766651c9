/// How much of a page the picker takes on: a page is input from anywhere, and a hostile one (endless
/// HTML, a hundred thousand images) is cut at these sizes.
public enum PageLimits {
    /// Only this much of a page's HTML is read for images; the rest is passed over.
    public static let maximumHTMLBytes = 8_000_000
    /// The picker lists at most this many of a page's images, the first in page order.
    public static let maximumImages = 500
    /// A page's title is cut to this many characters.
    public static let maximumTitleLength = 300
    /// An alternative text, a title or an address longer than this is left out.
    public static let maximumTextLength = 2_000
    /// Images smaller than this many pixels on both sides are hidden until the user asks for them.
    public static let smallImagePixels = 200
    /// Thumbnails the picker loads at once.
    public static let thumbnailsAtOnce = 4
}
