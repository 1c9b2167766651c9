import Foundation
import Testing

@testable import GalleryCore

/// The APNG reader: frames, timing, dispose and blend read from the chunks, and each frame's own PNG.
@Suite struct APNGFileTests {
    static func bigEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    /// A chunk whose checksum is not checked by the reader.
    static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        bigEndian(payload.count) + Array(type.utf8) + payload + [0, 0, 0, 0]
    }

    struct Frame {
        var x = 0
        var y = 0
        var width = 4
        var height = 4
        var delay: (UInt8, UInt8) = (1, 10)
        var dispose: UInt8 = 0
        var blend: UInt8 = 0
    }

    /// A 4×4 APNG (its pixel data a stand-in) whose first frame is the default image unless `defaultImageApart`.
    static func apng(
        _ frames: [Frame], declared: Int? = nil, plays: Int = 0, defaultImageApart: Bool = false, end: Bool = true
    ) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", bigEndian(4) + bigEndian(4) + [8, 6, 0, 0, 0])
        bytes += chunk("acTL", bigEndian(declared ?? frames.count) + bigEndian(plays))
        bytes += chunk("PLTE", [1, 2, 3])
        var sequence = 0
        if defaultImageApart { bytes += chunk("IDAT", [9, 9]) }
        for (index, frame) in frames.enumerated() {
            bytes += chunk(
                "fcTL",
                bigEndian(sequence) + bigEndian(frame.width) + bigEndian(frame.height) + bigEndian(frame.x)
                    + bigEndian(frame.y) + [0, frame.delay.0, 0, frame.delay.1, frame.dispose, frame.blend])
            sequence += 1
            if index == 0 && !defaultImageApart {
                bytes += chunk("IDAT", [UInt8(index), 1]) + chunk("IDAT", [UInt8(index), 2])
            } else {
                bytes += chunk("fdAT", bigEndian(sequence) + [UInt8(index), 1])
                sequence += 1
            }
        }
        if end { bytes += chunk("IEND", []) }
        return Data(bytes)
    }

    @Test func anAPNGGivesItsFramesTimingDisposeAndBlend() throws {
        let file = try #require(
            APNGFile.read(
                Self.apng(
                    [
                        Frame(delay: (1, 25), dispose: 2),
                        Frame(x: 1, y: 2, width: 3, height: 2, delay: (3, 0), blend: 1),
                        Frame(delay: (0, 10), dispose: 1),
                    ], plays: 2)))
        #expect(file.width == 4 && file.height == 4 && file.plays == 2 && !file.isCutShort)
        #expect(file.frames.map(\.delay) == [40, 30, 0])
        #expect(file.timing.delays == [40, 30, 100])
        // The first frame's "previous" is the empty canvas.
        #expect(file.frames.map(\.dispose) == [.background, .none, .background])
        #expect(file.frames.map(\.blend) == [.source, .over, .source])
        #expect(file.frames[1].x == 1 && file.frames[1].y == 2 && file.frames[1].width == 3)
        #expect(APNGFile.read(Self.apng([Frame(), Frame()], plays: 0))?.plays == nil)
        let header = try #require(AnimationHeader.read(Self.apng([Frame(), Frame(delay: (1, 2))])))
        #expect(header.format == .png && header.frameCount == 2 && header.duration == 600)
    }

    @Test func eachFrameIsAPNGOfItsOwnSizeWithTheSharedChunks() throws {
        let file = try #require(APNGFile.read(Self.apng([Frame(), Frame(x: 1, y: 1, width: 3, height: 2)])))
        let png = [UInt8](file.png(ofFrame: 1))
        #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(
            Array(png[8..<33]) == Self.chunk("IHDR", Self.bigEndian(3) + Self.bigEndian(2) + [8, 6, 0, 0, 0]).dropLast(
                4) + [0x9D, 0x74, 0x66, 0x1A])
        let rest = Array(png[33...])
        #expect(rest.prefix(15) == Self.chunk("PLTE", [1, 2, 3])[...])
        // The fdAT payload without its sequence number, as IDAT.
        #expect(Array(rest[15..<25]) == Self.bigEndian(2) + Array("IDAT".utf8) + [1, 1])
        #expect(Array(rest.suffix(12)) == Self.bigEndian(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        // The default image's two IDAT chunks stay two.
        #expect(file.png(ofFrame: 0).count == 8 + 25 + 15 + 2 * 14 + 12)
    }

    @Test func aDefaultImageBeforeTheFirstFrameControlIsNotAFrame() throws {
        let file = try #require(APNGFile.read(Self.apng([Frame(), Frame(), Frame()], defaultImageApart: true)))
        #expect(file.frames.count == 3)
        #expect(
            Array([UInt8](file.png(ofFrame: 0)).suffix(26).prefix(10)) == Self.bigEndian(2) + Array("IDAT".utf8) + [
                0, 1,
            ])
    }

    @Test func aStillPNGOrOneFrameIsNoAnimation() {
        var still = Self.apng([Frame(), Frame()])
        still.replaceSubrange(37..<41, with: Array("xxxx".utf8))  // acTL renamed: a plain PNG
        #expect(APNGFile.read(still) == nil)
        #expect(AnimationHeader.read(still) == nil)
        #expect(APNGFile.read(Self.apng([Frame()])) == nil)
    }

    @Test func anAPNGCutShortKeepsItsWholeFrames() throws {
        let whole = Self.apng([Frame(), Frame(), Frame()])
        let cut = try #require(APNGFile.read(whole.prefix(whole.count - 14)))
        #expect(cut.frames.count == 2 && cut.isCutShort)
        // Fewer frames than acTL declares: cut short too.
        #expect(APNGFile.read(Self.apng([Frame(), Frame()], declared: 3))?.isCutShort == true)
        #expect(AnimationHeader.read(whole.prefix(whole.count - 14))?.frameCount == 2)
    }

    @Test func aFrameOutsideTheCanvasEndsTheAnimationBeforeIt() throws {
        let file = try #require(
            APNGFile.read(Self.apng([Frame(), Frame(), Frame(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF), Frame()])))
        #expect(file.frames.count == 2 && file.isCutShort)
        #expect(APNGFile.read(Self.apng([Frame(), Frame(), Frame(x: 2, width: 3)]))?.frames.count == 2)
    }

    @Test func aCanvasBeyondTheLimitsIsNoAnimation() {
        var huge = [UInt8](Self.apng([Frame(), Frame()]))
        huge.replaceSubrange(16..<24, with: Self.bigEndian(100_000) + Self.bigEndian(100_000))
        #expect(AnimationHeader.read(Data(huge)) == nil)
    }
}
