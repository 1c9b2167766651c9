import Foundation

/// Images built in code for the decoder and pipeline tests.
enum TestImages {
    /// An RGB PNG of `width`×`height` with a gradient, its rows stored uncompressed.
    static func png(width: Int, height: Int) -> [UInt8] {
        var rows: [UInt8] = []
        rows.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            rows.append(0)  // filter type None
            for x in 0..<width {
                rows += [UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), 128]
            }
        }
        return pngFile(width: width, height: height, imageData: Deflate.zlibStored(rows))
    }

    /// A PNG whose header claims `width`×`height` and whose image data is one empty row: a decoder
    /// that read past the header would find it cut short.
    static func pngClaiming(width: Int, height: Int) -> [UInt8] {
        pngFile(width: width, height: height, imageData: Deflate.zlibStored([0]))
    }

    private static func pngFile(width: Int, height: Int, imageData: [UInt8]) -> [UInt8] {
        let header =
            Deflate.bigEndian(UInt32(width)) + Deflate.bigEndian(UInt32(height))
            + [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, adaptive filtering, not interlaced
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", imageData) + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + payload
        return Deflate.bigEndian(UInt32(payload.count)) + typed + Deflate.bigEndian(Deflate.crc32(typed))
    }

    /// An RGBA PNG of `width`×`height` in one colour.
    static func png(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
        let header = Deflate.bigEndian(UInt32(width)) + Deflate.bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", rgbaData(width: width, height: height, rgba: rgba))
            + chunk("IEND", [])
    }

    private static func rgbaData(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
        Deflate.zlibStored(
            Array(
                [[UInt8]](repeating: [0] + Array([[UInt8]](repeating: rgba, count: width).joined()), count: height)
                    .joined()))
    }

    /// One frame of `apng(width:height:frames:)`: a rectangle in one colour.
    struct APNGFrame {
        var x = 0
        var y = 0
        var width: Int
        var height: Int
        var rgba: [UInt8]
        var delay: (numerator: UInt16, denominator: UInt16) = (1, 10)
        /// 0 none, 1 background, 2 previous.
        var dispose: UInt8 = 0
        /// 0 source, 1 over.
        var blend: UInt8 = 0
    }

    /// An APNG of `width`×`height` playing `plays` times (0: forever), its first frame the default image (IDAT) and
    /// the others fdAT chunks.
    static func apng(width: Int, height: Int, plays: UInt32 = 0, frames: [APNGFrame]) -> [UInt8] {
        let header = Deflate.bigEndian(UInt32(width)) + Deflate.bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        file += chunk("acTL", Deflate.bigEndian(UInt32(frames.count)) + Deflate.bigEndian(plays))
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            let control =
                Deflate.bigEndian(sequence) + Deflate.bigEndian(UInt32(frame.width))
                + Deflate.bigEndian(UInt32(frame.height)) + Deflate.bigEndian(UInt32(frame.x))
                + Deflate.bigEndian(UInt32(frame.y)) + Deflate.bigEndian(frame.delay.numerator)
                + Deflate.bigEndian(frame.delay.denominator) + [frame.dispose, frame.blend]
            file += chunk("fcTL", control)
            sequence += 1
            let data = rgbaData(width: frame.width, height: frame.height, rgba: frame.rgba)
            if index == 0 {
                file += chunk("IDAT", data)
            } else {
                file += chunk("fdAT", Deflate.bigEndian(sequence) + data)
                sequence += 1
            }
        }
        return file + chunk("IEND", [])
    }

    /// A GIF of `width`×`height` in two colours whose one frame is empty (a clear code, then the end).
    static func gif(width: Int, height: Int) -> [UInt8] {
        let size = Deflate.littleEndian(UInt16(width)) + Deflate.littleEndian(UInt16(height))
        let screen = Array("GIF89a".utf8) + size + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        let frame = [0x2C] + Deflate.littleEndian(UInt16(0)) + Deflate.littleEndian(UInt16(0)) + size + [0]
        let pixels: [UInt8] = [2, 1, 0x2C, 0]  // code size 2; the 3-bit codes 4 (clear) and 5 (end)
        return screen + frame + pixels + [0x3B]
    }

    /// A 24×16 baseline JPEG (ImageMagick's red-to-blue gradient at quality 80).
    static let jpeg = [UInt8](
        Data(
            base64Encoded: """
                /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwg\
                IyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgo\
                KCgoKCgoKCgoKCgoKCj/wAARCAAQABgDASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAAAAYH/8QAFhABAQEAAAAAAAAA\
                AAAAAAAAABRh/8QAFQEBAQAAAAAAAAAAAAAAAAAAAAb/xAAWEQADAAAAAAAAAAAAAAAAAAAAFmL/2gAMAwEAAhEDEQA/AMrs\
                0s1PWaWasESS9c6KGzRPWaCJIc6P/9k=
                """)!)
}
