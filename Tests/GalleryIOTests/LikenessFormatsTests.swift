import Foundation
import GalleryCore
import GalleryIO
import Testing

/// A photo's copies in the formats the web converts it to, made by Debian's encoders and measured as a drop measures
/// them (decoded into a thumbnail, AVIF in the decoder process): each is a near-duplicate of the original.
@Suite struct LikenessFormatsTests {
    /// A photo-like picture as a PPM file (which ImageMagick turns into a PNG): a gradient under soft blobs of colour,
    /// different for each seed.
    static func photo(seed: UInt64, width: Int = 480, height: Int = 360) -> [UInt8] {
        struct Blob {
            var x, y, radius, red, green, blue: Double
        }
        var random = SplitMix64(seed: seed)
        let blobs = (0..<10).map { _ in
            Blob(
                x: .random(in: 0..<Double(width), using: &random), y: .random(in: 0..<Double(height), using: &random),
                radius: .random(in: 30..<140, using: &random), red: .random(in: 0..<256, using: &random),
                green: .random(in: 0..<256, using: &random), blue: .random(in: 0..<256, using: &random))
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                var red = Double(x) / Double(width) * 255
                var green = Double(y) / Double(height) * 200
                var blue = 120.0
                for blob in blobs {
                    let dx = Double(x) - blob.x
                    let dy = Double(y) - blob.y
                    let weight = max(0, 1 - (dx * dx + dy * dy).squareRoot() / blob.radius)
                    red += (blob.red - red) * weight
                    green += (blob.green - green) * weight
                    blue += (blob.blue - blue) * weight
                }
                let at = (y * width + x) * 3
                rgb[at] = UInt8(red)
                rgb[at + 1] = UInt8(green)
                rgb[at + 2] = UInt8(blue)
            }
        }
        return Array("P6\n\(width) \(height)\n255\n".utf8) + rgb
    }

    /// Runs one of Debian's encoders in `directory` and returns the file it wrote.
    static func encode(_ tool: String, _ arguments: [String], output: String, in directory: URL) throws -> Data {
        try ExternalTool.run(tool, arguments, in: directory)
        return try Data(contentsOf: directory.appendingPathComponent(output))
    }

    @Test func halfSizeJPEGWebPAndAVIFCopiesAreNearDuplicatesAndAnotherPhotoIsNot() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.write(Self.photo(seed: 1), to: "photo.ppm")
        _ = try directory.write(Self.photo(seed: 2), to: "other.ppm")
        let convert = "/usr/local/bin/convert"
        let original = try Self.encode(convert, ["photo.ppm", "photo.png"], output: "photo.png", in: directory.url)
        let otherPhoto = try Self.encode(convert, ["other.ppm", "other.png"], output: "other.png", in: directory.url)
        let copies = [
            (
                "JPEG",
                try Self.encode(
                    convert, ["photo.png", "-resize", "50%", "-quality", "40", "copy.jpg"],
                    output: "copy.jpg", in: directory.url)
            ),
            (
                "WebP",
                try Self.encode(
                    "/usr/bin/cwebp", ["-q", "60", "-resize", "240", "180", "photo.png", "-o", "copy.webp"],
                    output: "copy.webp", in: directory.url)
            ),
            (
                "AVIF",
                try Self.encode(
                    "/usr/bin/avifenc", ["--speed", "10", "--min", "20", "--max", "40", "photo.png", "copy.avif"],
                    output: "copy.avif", in: directory.url)
            ),
        ]
        let measured = try #require(Likeness(imageBytes: original))
        for (format, bytes) in copies {
            let copy = try #require(Likeness(imageBytes: bytes), "\(format) decodes")
            #expect(
                copy.isNearDuplicate(of: measured), "\(format): \(copy.fingerprint.distance(to: measured.fingerprint))")
        }
        let other = try #require(Likeness(imageBytes: otherPhoto))
        #expect(!other.isNearDuplicate(of: measured))
    }
}
