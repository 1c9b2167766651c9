import CCairo
import Foundation
import GalleryCore
import Testing

@testable import GLibKit
@testable import GalleryIO

/// The decoders animations play from: libwebp's for WebP, the APNG reader's composition, frame by frame.
@Suite struct FrameSourceTests {
    static let red: [UInt8] = [255, 0, 0, 255]
    static let green: [UInt8] = [0, 255, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255]

    /// The frame's pixel as unpremultiplied red, green, blue and alpha.
    func rgba(_ surface: CairoSurface, _ x: Int, _ y: Int) -> [Int] {
        cairo_surface_flush(surface.surface)
        let stride = Int(cairo_image_surface_get_stride(surface.surface))
        let data = cairo_image_surface_get_data(surface.surface)!
        let value = UnsafeRawPointer(data).load(fromByteOffset: y * stride + 4 * x, as: UInt32.self)
        let alpha = Int(value >> 24)
        let channels = [value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF].map { Int($0) }
        return channels.map { alpha == 0 ? 0 : ($0 * 255 + alpha / 2) / alpha } + [alpha]
    }

    func colour(_ source: any FrameSource, width: Int, height: Int, x: Int = 0, y: Int = 0) throws -> [Int] {
        rgba(try #require(source.frame(width: width, height: height, scale: 1)), x, y)
    }

    /// An animated WebP of 8×8 frames in `colours`, lossless, 100 ms each, made by libwebp's img2webp.
    static func webp(_ colours: [[UInt8]]) throws -> Data {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let frames = try colours.enumerated().map { index, colour in
            try directory.write(TestImages.png(width: 8, height: 8, rgba: colour), to: "\(index).png")
        }
        let output = directory.url.appendingPathComponent("animation.webp").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/img2webp")
        process.arguments = ["-loop", "0", "-lossless"] + frames + ["-o", output]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    @Test func aWebPPlaysItsFramesInOrderAndFromTheStartAgain() throws {
        let bytes = try Self.webp([Self.red, Self.green, Self.blue])
        let header = try #require(AnimationHeader.read(bytes))
        #expect(header.format == .webp && header.frameCount == 3)
        let source = try #require(WebPAnimation.read(bytes, frameCount: header.frameCount))
        #expect(try colour(source, width: 8, height: 8) == [255, 0, 0, 255])
        #expect(source.advance() && source.position == 1)
        #expect(try colour(source, width: 4, height: 4, x: 3, y: 3) == [0, 255, 0, 255])
        #expect(source.advance())
        #expect(try colour(source, width: 8, height: 8) == [0, 0, 255, 255])
        #expect(!source.advance())
        source.restart()
        #expect(source.position == 0)
        #expect(try colour(source, width: 8, height: 8) == [255, 0, 0, 255])
    }

    @Test func aWebPCutShortPlaysTheFramesItHas() throws {
        let bytes = try Self.webp([Self.red, Self.green, Self.blue])
        let cut = bytes.prefix(bytes.count - 5)
        let header = try #require(AnimationHeader.read(cut))
        #expect(header.frameCount == 2 && header.isCutShort)
        let source = try #require(WebPAnimation.read(cut, frameCount: header.frameCount))
        #expect(source.advance())
        #expect(try colour(source, width: 8, height: 8) == [0, 255, 0, 255])
        #expect(!source.advance())
    }

    @Test func aWebPFrameThatDeclaresAHugeSizeEndsTheAnimationBeforeIt() throws {
        var bytes = try Self.webp([Self.red, Self.green, Self.blue])
        // The third ANMF chunk's width: 2^24 pixels.
        var frames: [Int] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            if bytes[offset..<offset + 4] == Data("ANMF".utf8) { frames.append(offset) }
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
            offset += 8 + size + size % 2
        }
        try #require(frames.count == 3)
        bytes.replaceSubrange(frames[2] + 14..<frames[2] + 17, with: [0xFF, 0xFF, 0xFF])
        let header = try #require(AnimationHeader.read(bytes))
        #expect(header.frameCount == 2 && header.isCutShort)
        let source = try #require(WebPAnimation.read(bytes, frameCount: header.frameCount))
        #expect(source.advance())
        #expect(!source.advance())
    }

    @Test func anAPNGComposesItsFramesAsTheyDisposeAndBlend() throws {
        typealias Frame = TestImages.APNGFrame
        let bytes = TestImages.apng(
            width: 4, height: 4,
            frames: [
                Frame(width: 4, height: 4, rgba: Self.red),
                // Half-transparent blue over the red, then cleared.
                Frame(width: 2, height: 2, rgba: [0, 0, 255, 128], dispose: 1, blend: 1),
                // Green replacing the corner, then the corner as it was.
                Frame(x: 2, y: 2, width: 2, height: 2, rgba: Self.green, dispose: 2, blend: 0),
                // A transparent pixel replacing a red one.
                Frame(x: 3, y: 0, width: 1, height: 1, rgba: [0, 0, 0, 0], blend: 0),
            ])
        let file = try #require(APNGFile.read(Data(bytes)))
        let source = try #require(APNGAnimation(file: file, width: 4, height: 4))
        #expect(try colour(source, width: 4, height: 4) == [255, 0, 0, 255])
        #expect(source.advance())
        let mixed = try colour(source, width: 4, height: 4)
        #expect(abs(mixed[0] - 127) <= 2 && mixed[1] == 0 && abs(mixed[2] - 128) <= 2 && mixed[3] == 255)
        #expect(try colour(source, width: 4, height: 4, x: 3, y: 3) == [255, 0, 0, 255])
        #expect(source.advance())
        #expect(try colour(source, width: 4, height: 4) == [0, 0, 0, 0])
        #expect(try colour(source, width: 4, height: 4, x: 3, y: 3) == [0, 255, 0, 255])
        #expect(source.advance())
        #expect(try colour(source, width: 4, height: 4, x: 3, y: 3) == [255, 0, 0, 255])
        #expect(try colour(source, width: 4, height: 4, x: 3, y: 0) == [0, 0, 0, 0])
        #expect(try colour(source, width: 4, height: 4, x: 2, y: 0) == [255, 0, 0, 255])
        #expect(!source.advance())
        source.restart()
        #expect(try colour(source, width: 4, height: 4, x: 3, y: 0) == [255, 0, 0, 255])
    }

    @Test func anAPNGIsComposedAtTheSizeItShows() throws {
        typealias Frame = TestImages.APNGFrame
        let bytes = TestImages.apng(
            width: 400, height: 200,
            frames: [
                Frame(width: 400, height: 200, rgba: Self.red),
                Frame(x: 200, y: 100, width: 200, height: 100, rgba: Self.blue, blend: 1),
            ])
        let file = try #require(APNGFile.read(Data(bytes)))
        let source = try #require(APNGAnimation(file: file, width: 40, height: 20))
        #expect(source.advance())
        let frame = try #require(source.frame(width: 40, height: 20, scale: 1))
        #expect(frame.pixelWidth == 40 && frame.pixelHeight == 20)
        #expect(rgba(frame, 19, 9) == [255, 0, 0, 255])
        #expect(rgba(frame, 20, 10) == [0, 0, 255, 255])
    }

    @Test func anAPNGCutShortOrDamagedPlaysTheFramesBeforeIt() throws {
        typealias Frame = TestImages.APNGFrame
        let frames = [Self.red, Self.green, Self.blue].map { Frame(width: 4, height: 4, rgba: $0) }
        let bytes = TestImages.apng(width: 4, height: 4, frames: frames)
        let cut = try #require(APNGFile.read(Data(bytes.prefix(bytes.count - 30))))
        #expect(cut.frames.count == 2 && cut.isCutShort)
        let source = try #require(APNGAnimation(file: cut, width: 4, height: 4))
        #expect(source.advance())
        #expect(!source.advance())
        // The third frame's zlib header broken, its chunk's checksum still right.
        var broken = bytes
        let type = try #require(
            (0..<broken.count - 4).last { broken[$0..<$0 + 4].elementsEqual("fdAT".utf8) })
        let length =
            Int(broken[type - 4]) << 24 | Int(broken[type - 3]) << 16 | Int(broken[type - 2]) << 8
            | Int(broken[type - 1])
        broken[type + 8] = 0xFF
        broken.replaceSubrange(
            type + 4 + length..<type + 8 + length,
            with: Deflate.bigEndian(Deflate.crc32(Array(broken[type..<type + 4 + length]))))
        let file = try #require(APNGFile.read(Data(broken)))
        #expect(file.frames.count == 3)
        let playing = try #require(APNGAnimation(file: file, width: 4, height: 4))
        #expect(playing.advance())
        #expect(!playing.advance())
        #expect(try colour(playing, width: 4, height: 4) == [0, 255, 0, 255])
    }
}
