import Testing

@testable import GalleryCore

@Suite struct ViewerZoomTests {
    @Test func fitShowsTheWholeImageCentredAsLargeAsTheViewAllows() {
        // A panorama in a 1000×800 view: its width fills the view, centred vertically.
        let panorama = ViewerZoom(imageWidth: 4000, imageHeight: 1000, viewWidth: 1000, viewHeight: 800)
        #expect(panorama.imageRect == LayoutRect(x: 0, y: 275, width: 1000, height: 250))
        // A portrait: its height fills the view, centred horizontally.
        let portrait = ViewerZoom(imageWidth: 1000, imageHeight: 2000, viewWidth: 1000, viewHeight: 800)
        #expect(portrait.imageRect == LayoutRect(x: 300, y: 0, width: 400, height: 800))
    }

    @Test func aSmallImageIsNotEnlargedToFit() {
        let small = ViewerZoom(imageWidth: 200, imageHeight: 100, viewWidth: 1000, viewHeight: 800)
        #expect(small.fitScale == 1)
        #expect(small.imageRect == LayoutRect(x: 400, y: 350, width: 200, height: 100))
        #expect(!small.canPan)
    }

    @Test func zoomKeepsThePointUnderThePointerStill() {
        var zoom = ViewerZoom(imageWidth: 4000, imageHeight: 3200, viewWidth: 1000, viewHeight: 800)
        #expect(zoom.fitScale == 0.25)
        // The image point under (300, 200) before: (1200, 800).
        zoom.setScale(1, aroundX: 300, y: 200)
        let rect = zoom.imageRect
        #expect(rect.width == 4000)
        #expect((300 - rect.x) / 1 == 1200)
        #expect((200 - rect.y) / 1 == 800)
        #expect(zoom.canPan)
    }

    @Test func zoomingInNearAnEdgeNeverShowsPastIt() {
        var zoom = ViewerZoom(imageWidth: 4000, imageHeight: 3200, viewWidth: 1000, viewHeight: 800)
        zoom.setScale(1, aroundX: 0, y: 0)
        #expect(zoom.imageRect.x == 0)
        #expect(zoom.imageRect.y == 0)
        zoom.pan(dx: 10_000, dy: 10_000)
        #expect(zoom.imageRect.x == 0)
        #expect(zoom.imageRect.y == 0)
        zoom.pan(dx: -10_000, dy: -10_000)
        #expect(zoom.imageRect.maxX == 1000)
        #expect(zoom.imageRect.maxY == 800)
    }

    @Test func zoomingOutToTheFitSizeFits() {
        var zoom = ViewerZoom(imageWidth: 4000, imageHeight: 3200, viewWidth: 1000, viewHeight: 800)
        zoom.setScale(2, aroundX: 500, y: 400)
        #expect(zoom.scale == 2)
        zoom.zoom(by: 0.01, aroundX: 10, y: 10)
        #expect(zoom.isFitting)
        #expect(zoom.imageRect == LayoutRect(x: 0, y: 0, width: 1000, height: 800))
        zoom.setScale(1000, aroundX: 500, y: 400)
        #expect(zoom.scale == ViewerZoom.maximum)
    }

    @Test func sharpSizeIsWhatTheScreenShowsNeverMoreThanTheFileOrTheCap() {
        var zoom = ViewerZoom(imageWidth: 12000, imageHeight: 8000, viewWidth: 1200, viewHeight: 800)
        #expect(zoom.sharpSize == (1200, 800))
        // 1:1 on 96 MP: a quarter of the size (6 MP within the 8 MP cap), which a JPEG decoder gives
        // straight from the DCT.
        zoom.setScale(1, aroundX: 600, y: 400)
        #expect(zoom.sharpSize == (3000, 2000))
        zoom.setScale(4, aroundX: 600, y: 400)
        #expect(zoom.sharpSize == (3000, 2000))
        // Just past a quarter, the decoder would decode at half size (24 MP) before reducing it: a quarter it is.
        zoom.setScale(0.27, aroundX: 600, y: 400)
        #expect(zoom.sharpSize == (3000, 2000))
        // Below a quarter, the decoder's quarter-size step fits the cap: the size shown.
        zoom.setScale(0.2, aroundX: 600, y: 400)
        #expect(zoom.sharpSize == (2400, 1600))
        let small = ViewerZoom(imageWidth: 300, imageHeight: 200, viewWidth: 1200, viewHeight: 800)
        #expect(small.sharpSize == (300, 200))
    }

    @Test func learningTheTrueSizeKeepsWhatIsShown() {
        var zoom = ViewerZoom(imageWidth: 1.5, imageHeight: 1, viewWidth: 1200, viewHeight: 800)
        zoom.setImageSize(width: 3000, height: 2000)
        #expect(zoom.isFitting)
        #expect(zoom.imageRect == LayoutRect(x: 0, y: 0, width: 1200, height: 800))
    }
}
