import Testing

@testable import GalleryCore

@Suite struct ImageSizingTests {
    @Test func theSmallestThumbnailSizeThatCoversTheCellsLongerSide() {
        #expect(ThumbnailSize.covering(width: 100, height: 128) == .normal)
        #expect(ThumbnailSize.covering(width: 129, height: 80) == .large)
        #expect(ThumbnailSize.covering(width: 220, height: 256) == .large)
        // A panorama in a row 220 high is 880 wide: only xx-large thumbnails are that wide.
        #expect(ThumbnailSize.covering(width: 880, height: 220) == .xxLarge)
        #expect(ThumbnailSize.covering(width: 1025, height: 400) == nil)
        #expect(ThumbnailSize.allCases.map(\.folderName) == ["normal", "large", "x-large", "xx-large"])
    }

    @Test func aPictureFitsInsideTheCellAndIsNeverEnlarged() {
        let wide = PixelFit(originalWidth: 2000, originalHeight: 1000, cellWidth: 441, cellHeight: 220)
        #expect((wide.width, wide.height) == (440, 220))
        let small = PixelFit(originalWidth: 120, originalHeight: 80, cellWidth: 330, cellHeight: 220)
        #expect((small.width, small.height) == (120, 80))
        // A recorded ratio that differs from the file's: fitted, not stretched.
        let square = PixelFit(originalWidth: 1000, originalHeight: 1000, cellWidth: 330, cellHeight: 220)
        #expect((square.width, square.height) == (220, 220))
        let unknown = PixelFit(originalWidth: 0, originalHeight: 0, cellWidth: 330, cellHeight: 220)
        #expect((unknown.width, unknown.height) == (330, 220))
    }

    @Test func onlyMoreThanARoundingOffIsDecodedAgain() {
        let fit = PixelFit(originalWidth: 2000, originalHeight: 1000, cellWidth: 440, cellHeight: 220)
        #expect(!fit.wantsRedecode(ofPixelWidth: 440, pixelHeight: 220))
        #expect(!fit.wantsRedecode(ofPixelWidth: 439, pixelHeight: 221))
        #expect(fit.wantsRedecode(ofPixelWidth: 330, pixelHeight: 165), "smaller: it would be enlarged")
        #expect(fit.wantsRedecode(ofPixelWidth: 880, pixelHeight: 440), "larger: resampled at every paint")
    }
}
