/// Where the image viewer draws an image and how far it is zoomed, in device pixels: "fit" shows
/// the whole image as large as the view allows (a small image at its own size, as Eye of GNOME and
/// Loupe do), any other zoom keeps a point of the image at the view's centre and never lets an edge
/// come inside the view while the image is larger than it.
public struct ViewerZoom: Equatable, Sendable {
    /// How far in and out the user may zoom (device pixels per image pixel).
    public static let maximum = 20.0

    /// The image's own size, in its pixels (upright).
    public private(set) var imageWidth: Double
    public private(set) var imageHeight: Double
    /// The view's size in device pixels.
    public private(set) var viewWidth: Double
    public private(set) var viewHeight: Double
    /// Device pixels per image pixel; nil while fitting.
    public private(set) var scale: Double?
    /// The image point shown at the view's centre (while not fitting).
    public private(set) var centerX: Double
    public private(set) var centerY: Double

    public init(imageWidth: Double, imageHeight: Double, viewWidth: Double, viewHeight: Double) {
        self.imageWidth = max(imageWidth, 1)
        self.imageHeight = max(imageHeight, 1)
        self.viewWidth = max(viewWidth, 1)
        self.viewHeight = max(viewHeight, 1)
        centerX = self.imageWidth / 2
        centerY = self.imageHeight / 2
    }

    public var isFitting: Bool { scale == nil }

    /// The zoom at which the whole image shows, never enlarged past its own size.
    public var fitScale: Double { min(viewWidth / imageWidth, viewHeight / imageHeight, 1) }

    public var effectiveScale: Double { scale ?? fitScale }

    /// Whether the image is larger than the view in either direction (dragging pans it then).
    public var canPan: Bool {
        imageWidth * effectiveScale > viewWidth + 0.5 || imageHeight * effectiveScale > viewHeight + 0.5
    }

    /// Where the image is drawn, in the view's device pixels.
    public var imageRect: LayoutRect {
        let s = effectiveScale
        let width = imageWidth * s
        let height = imageHeight * s
        let x = width <= viewWidth ? (viewWidth - width) / 2 : viewWidth / 2 - centerX * s
        let y = height <= viewHeight ? (viewHeight - height) / 2 : viewHeight / 2 - centerY * s
        return LayoutRect(x: x, y: y, width: width, height: height)
    }

    /// The image's true size became known (it was guessed from its aspect ratio).
    public mutating func setImageSize(width: Double, height: Double) {
        let fractionX = centerX / imageWidth
        let fractionY = centerY / imageHeight
        if let scale { self.scale = scale * imageWidth / max(width, 1) }
        imageWidth = max(width, 1)
        imageHeight = max(height, 1)
        centerX = fractionX * imageWidth
        centerY = fractionY * imageHeight
        clamp()
    }

    public mutating func setViewSize(width: Double, height: Double) {
        viewWidth = max(width, 1)
        viewHeight = max(height, 1)
        clamp()
    }

    public mutating func fit() {
        scale = nil
        centerX = imageWidth / 2
        centerY = imageHeight / 2
    }

    /// Zooms to `newScale`, keeping the image point under the view point (`x`, `y`) where it is.
    /// Zooming out to the fit size or below fits.
    public mutating func setScale(_ newScale: Double, aroundX x: Double, y: Double) {
        let target = min(newScale, Self.maximum)
        let rect = imageRect
        let old = effectiveScale
        // The image point under (x, y) now, and the centre that keeps it there at the new scale.
        let pointX = (x - rect.x) / old
        let pointY = (y - rect.y) / old
        if target <= fitScale + 1e-9 {
            fit()
            return
        }
        scale = target
        centerX = pointX + (viewWidth / 2 - x) / target
        centerY = pointY + (viewHeight / 2 - y) / target
        clamp()
    }

    public mutating func zoom(by factor: Double, aroundX x: Double, y: Double) {
        setScale(effectiveScale * factor, aroundX: x, y: y)
    }

    /// Moves the image with the pointer by (`dx`, `dy`) device pixels.
    public mutating func pan(dx: Double, dy: Double) {
        guard let scale else { return }
        centerX -= dx / scale
        centerY -= dy / scale
        clamp()
    }

    /// The size to decode the image at for the view to show it sharp: the image at the zoom shown
    /// (never larger than the file), within `ImageLimits.maximumWholePixels`: the pixels beyond are enlarged.
    public var sharpSize: (width: Int, height: Int) {
        let wanted = min(effectiveScale, 1)
        var scale = wanted
        // A JPEG decoder scales by 1/2, 1/4 or 1/8 in the DCT and reduces the rest afterwards: the
        // step at or above the wanted scale is what it decodes, so that step must fit within the cap
        // (zoomed into a 96 MP photo, a decode just past 1/2 would otherwise decode all of it).
        let steps = [1, 0.5, 0.25, 0.125]
        let decoded = steps.last { $0 >= wanted } ?? 1
        let cap = Double(ImageLimits.maximumWholePixels)
        if pixels(atScale: decoded) > cap {
            scale = steps.first { pixels(atScale: $0) <= cap } ?? (cap / pixels(atScale: 1)).squareRoot()
        }
        return (max(1, Int((imageWidth * scale).rounded())), max(1, Int((imageHeight * scale).rounded())))
    }

    private func pixels(atScale scale: Double) -> Double { imageWidth * imageHeight * scale * scale }

    /// Keeps the image covering the view on each axis where it is larger than the view.
    private mutating func clamp() {
        guard let scale else { return }
        let halfWidth = viewWidth / 2 / scale
        let halfHeight = viewHeight / 2 / scale
        centerX =
            imageWidth * scale <= viewWidth ? imageWidth / 2 : min(max(centerX, halfWidth), imageWidth - halfWidth)
        centerY =
            imageHeight * scale <= viewHeight
            ? imageHeight / 2 : min(max(centerY, halfHeight), imageHeight - halfHeight)
    }
}
