import Foundation
import Testing

@testable import GalleryCore

@Suite struct AnimationHeaderTests {
    /// A GIF of `delays.count` 2×2 frames (delays in hundredths of a second), with a NETSCAPE2.0 loop count if given.
    static func gif(delays: [Int], loops: Int?, frameSize: Int = 2, trailer: Bool = true) -> Data {
        var bytes = Array("GIF89a".utf8) + [2, 0, 2, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        if let loops {
            bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, UInt8(loops & 0xFF), UInt8(loops >> 8), 0]
        }
        for delay in delays {
            bytes += [0x21, 0xF9, 4, 0, UInt8(delay & 0xFF), UInt8(delay >> 8), 0, 0]
            bytes += [0x2C, 0, 0, 0, 0, UInt8(frameSize & 0xFF), UInt8(frameSize >> 8)]
            bytes += [UInt8(frameSize & 0xFF), UInt8(frameSize >> 8), 0]
            bytes += [2, 2, 0x44, 0x01, 0]
        }
        if trailer { bytes.append(0x3B) }
        return Data(bytes)
    }

    @Test func aGIFGivesItsFramesDelaysAndLoopCount() throws {
        let header = try #require(AnimationHeader.read(Self.gif(delays: [4, 0, 50], loops: 0)))
        #expect(header.format == .gif && header.width == 2 && header.height == 2)
        #expect(header.timing.delays == [40, 100, 500])
        #expect(header.timing.plays == nil)
        #expect(!header.isCutShort)
        // NETSCAPE2.0 counts repeats: 2 means three plays; without it a GIF plays once.
        #expect(AnimationHeader.read(Self.gif(delays: [4, 4], loops: 2))?.timing.plays == 3)
        #expect(AnimationHeader.read(Self.gif(delays: [4, 4], loops: nil))?.timing.plays == 1)
    }

    @Test func aStillGIFOrAnotherFormatIsNoAnimation() {
        #expect(AnimationHeader.read(Self.gif(delays: [4], loops: 0)) == nil)
        #expect(AnimationHeader.read(Data("not an image at all, not at all".utf8)) == nil)
        var huge = Self.gif(delays: [4, 4], loops: 0)
        huge[6...9] = Data([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(AnimationHeader.read(huge) == nil)
    }

    @Test func aGIFCutShortKeepsItsWholeFrames() throws {
        let whole = Self.gif(delays: [4, 4, 4, 4], loops: 0)
        let header = try #require(AnimationHeader.read(whole.prefix(whole.count - 3)))
        #expect(header.timing.frameCount == 3)
        #expect(header.isCutShort)
    }

    @Test func aFrameThatDeclaresAHugeSizeEndsTheAnimationBeforeIt() throws {
        var bytes = Self.gif(delays: [4, 4], loops: 0, trailer: false)
        bytes += Self.gif(delays: [4], loops: nil, frameSize: 65_535).dropFirst(19)
        let header = try #require(AnimationHeader.read(bytes))
        #expect(header.timing.frameCount == 2)
        #expect(header.isCutShort)
    }

    @Test func anAnimatedWebPGivesItsFramesDelaysAndLoopCount() throws {
        func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
            let size = payload.count
            return Array(fourCC.utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), 0, 0] + payload
                + (size % 2 == 1 ? [0] : [])
        }
        func frame(duration: Int) -> [UInt8] {
            chunk("ANMF", [0, 0, 0, 0, 0, 0, 9, 0, 0, 9, 0, 0, UInt8(duration & 0xFF), UInt8(duration >> 8), 0, 0])
        }
        let body =
            chunk("VP8X", [0x02, 0, 0, 0, 9, 0, 0, 9, 0, 0]) + chunk("ANIM", [0, 0, 0, 0, 3, 0])
            + frame(duration: 70) + frame(duration: 5) + frame(duration: 70)
        let file = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + body
        let header = try #require(AnimationHeader.read(Data(file)))
        #expect(header.format == .webp && header.width == 10 && header.height == 10)
        #expect(header.timing.delays == [70, 100, 70])
        #expect(header.timing.plays == 3)
        #expect(AnimationHeader.read(Data(file.dropLast(10)))?.timing.frameCount == 2)
    }
}
