import Foundation
import Testing

@testable import GalleryCore

@Suite struct ImageFormatTests {
    @Test func formatsWithoutALoaderNameTheirPackage() {
        let avif: [UInt8] = [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0]
        let heic: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0]
        #expect(ImageFormat.sniff(avif)?.name == "AVIF")
        #expect(ImageFormat.sniff(avif)?.loaderPackage == "libavif-gdk-pixbuf")
        #expect(ImageFormat.sniff(heic)?.loaderPackage == "heif-gdk-pixbuf")
        #expect(ImageFormat.sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8))?.name == "WebP")
        #expect(ImageFormat.sniff(Array("<?xml version=\"1.0\"?><svg/>".utf8))?.loaderPackage == "librsvg2-common")
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])?.loaderPackage == nil)
        #expect(ImageFormat.sniff(Array("<!DOCTYPE html><html>".utf8)) == nil)
    }

    /// An SVG is a document whose root is `<svg`: an XML file holding one further in is no image.
    @Test(arguments: [
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"/>", true),
        ("\u{FEFF}  <?xml version=\"1.0\"?>\n<!-- by hand -->\n<svg width=\"1\">", true),
        ("<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"svg11.dtd\">\n<svg>", true),
        ("<?xml version=\"1.0\"?><!DOCTYPE svg [ <!ENTITY a \"<b>\"> ] >\n<svg:svg xmlns:svg=\"x\">", true),
        ("<SVG>", true),
        ("<?xml version=\"1.0\"?><config><svg/></config>", false),
        ("<!-- <svg> --><html><svg/></html>", false),
        ("<svgish/>", false),
        ("<?xml version=\"1.0\"?><!-- never closed <svg/>", false),
    ])
    func svgIsItsRootElement(text: String, isSVG: Bool) {
        #expect((ImageFormat.sniff(Array(text.utf8))?.name == "SVG") == isSVG)
    }

    @Test func anSVGIsCalledSVGNotItsMediaSubtype() {
        let svg = ImageFormat.sniff(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
        #expect(svg?.mimeType == "image/svg+xml")
        #expect(svg?.fileExtension == "svg")
        #expect(ImageFormat.forMIMEType("image/svg+xml")?.fileExtension == "svg")
        #expect(ImageFormat.fileExtension(forMIMEType: "image/svg+xml") == "svg")
    }

    @Test func eachSpellingOfAFormatFindsItsOneEntry() {
        #expect(ImageFormat.forMIMEType("image/JPG")?.fileExtension == "jpg")
        #expect(ImageFormat.forMIMEType("image/vnd.microsoft.icon")?.name == "ICO")
        #expect(ImageFormat.forMIMEType("image/heic")?.fileExtension == "heic")
        #expect(ImageFormat.forFileExtension("JPEG")?.name == "JPEG")
        #expect(ImageFormat.forFileExtension("tiff")?.mimeType == "image/tiff")
        #expect(ImageFormat.forFileExtension("svgz")?.loaderPackage == "librsvg2-common")
        #expect(ImageFormat.forMIMEType("image/x-portable-pixmap") == nil)
    }

    @Test func theTableHoldsEachFactOnce() {
        let types = ImageFormat.all.flatMap(\.mimeTypes)
        let extensions = ImageFormat.all.flatMap(\.fileExtensions)
        #expect(Set(types).count == types.count)
        #expect(Set(extensions).count == extensions.count)
        for format in ImageFormat.all {
            #expect(format.mimeTypes.allSatisfy { $0 == $0.lowercased() && $0.hasPrefix("image/") })
            #expect(format.fileExtensions.allSatisfy { $0 == $0.lowercased() && !$0.contains(".") })
        }
    }

    @Test func onlyFormatsWithASignatureMakeALabelALie() {
        #expect(ImageFormat.hasKnownSignature("image/PNG"))
        #expect(ImageFormat.hasKnownSignature("image/svg+xml"))
        #expect(!ImageFormat.hasKnownSignature("image/svg+xml-compressed"))
        #expect(!ImageFormat.hasKnownSignature("image/x-portable-pixmap"))
    }

    @Test func anIconHeaderWinsOverAnISOBoxOfTheSameBytes() {
        #expect(ImageFormat.sniff([0, 0, 1, 0] + Array("ftypavif".utf8))?.name == "ICO")
        #expect(ImageFormat.sniff(Array("BM".utf8) + [UInt8](repeating: 0, count: 10)) == nil)
    }

    private func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(payload.count)
        return Array(fourCC.utf8) + [
            UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24),
        ]
            + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    private func riff(_ chunks: [UInt8]) -> [UInt8] {
        let size = UInt32(4 + chunks.count)
        return Array("RIFF".utf8) + [
            UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24),
        ]
            + Array("WEBP".utf8) + chunks
    }

    /// An ANMF payload: x/2, y/2, width-1, height-1 (24 bits each), duration, flags, then the frame's chunks.
    private func frame(x: UInt8 = 0, width: UInt8, height: UInt8, _ image: [UInt8]) -> [UInt8] {
        chunk("ANMF", [x, 0, 0, 0, 0, 0, width - 1, 0, 0, height - 1, 0, 0, 100, 0, 0, 0] + image)
    }

    /// VP8X with the animation flag (and alpha) for a 4×3 canvas.
    private let animatedHeader: [UInt8] = [0x12, 0, 0, 0, 3, 0, 0, 2, 0, 0]

    @Test func anAnimatedWebPGivesItsFirstFrameAsAStillWebP() {
        let first = chunk("VP8L", [0x2F, 1, 2, 3, 4])
        let file = riff(
            chunk("VP8X", animatedHeader) + chunk("ANIM", [0, 0, 0, 0, 0, 0])
                + frame(width: 4, height: 3, first) + frame(width: 4, height: 3, chunk("VP8L", [0x2F, 9, 9])))
        let still = StillImage.firstFrame(of: Data(file))
        // VP8X without the animation flag (alpha kept: VP8L may have it), the canvas size, the first frame only.
        #expect(Array(still) == riff(chunk("VP8X", [0x10, 0, 0, 0, 3, 0, 0, 2, 0, 0]) + first))
    }

    @Test func alphaTravelsWithALossyFirstFrame() {
        let alpha = chunk("ALPH", [0, 7, 7])
        let lossy = chunk("VP8 ", [1, 2, 3, 4])
        let file = riff(
            chunk("VP8X", animatedHeader) + frame(width: 4, height: 3, alpha + lossy)
                + frame(width: 4, height: 3, lossy))
        #expect(
            Array(StillImage.firstFrame(of: Data(file)))
                == riff(chunk("VP8X", [0x10, 0, 0, 0, 3, 0, 0, 2, 0, 0]) + alpha + lossy))
    }

    @Test func whatIsNotAWholeFirstFrameIsLeftAsItIs() {
        let image = chunk("VP8L", [0x2F, 1, 2, 3])
        let smallFirst = riff(chunk("VP8X", animatedHeader) + frame(width: 2, height: 3, image))
        let movedFirst = riff(chunk("VP8X", animatedHeader) + frame(x: 1, width: 4, height: 3, image))
        let still = riff(chunk("VP8L", [0x2F, 1, 2, 3]))
        let cutShort = Array(riff(chunk("VP8X", animatedHeader) + frame(width: 4, height: 3, image)).dropLast(3))
        for bytes in [smallFirst, movedFirst, still, cutShort, Array("GIF89a".utf8)] {
            #expect(StillImage.firstFrame(of: Data(bytes)) == Data(bytes))
        }
    }
}
