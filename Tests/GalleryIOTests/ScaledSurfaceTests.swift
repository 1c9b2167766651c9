import CCairo
import Foundation
import Testing

@testable import GLibKit

/// Pixels resampled straight into a cell's surface (`Pixbuf.surface(width:height:scale:cornerRadius:)`).
@Suite struct ScaledSurfaceTests {
    /// A pixbuf from `channels`-byte pixels given row by row.
    func pixbuf(width: Int, height: Int, alpha: Bool, _ pixel: (Int, Int) -> [UInt8]) throws -> Pixbuf {
        let channels = alpha ? 4 : 3
        let rowstride = (width * channels + 3) / 4 * 4
        var bytes = [UInt8](repeating: 0, count: rowstride * (height - 1) + width * channels)
        for y in 0..<height {
            for x in 0..<width {
                let value = pixel(x, y)
                for channel in 0..<channels { bytes[y * rowstride + x * channels + channel] = value[channel] }
            }
        }
        return try #require(
            Pixbuf(.init(width: width, height: height, rowstride: rowstride, hasAlpha: alpha, bytes: Data(bytes))))
    }

    /// The surface's pixel as cairo keeps it: premultiplied alpha, red, green, blue.
    func argb(_ surface: CairoSurface, _ x: Int, _ y: Int) -> [Int] {
        cairo_surface_flush(surface.surface)
        let stride = Int(cairo_image_surface_get_stride(surface.surface))
        let data = cairo_image_surface_get_data(surface.surface)!
        let value = UnsafeRawPointer(data).load(fromByteOffset: y * stride + 4 * x, as: UInt32.self)
        return [Int(value >> 24), Int(value >> 16 & 0xFF), Int(value >> 8 & 0xFF), Int(value & 0xFF)]
    }

    /// Whether the page at `address` is mapped in this process: `mincore` says ENOMEM for one that is not.
    func isMapped(_ address: UnsafeMutableRawPointer) -> Bool {
        var resident: UInt8 = 0
        return mincore(address, 1, &resident) == 0 || errno != ENOMEM
    }

    /// A cell's picture is dropped on the GUI thread once its display copy replaces it: its pixels go back to the
    /// system then, not into the arena of the worker that made them.
    @Test(arguments: [(300, 200), (512, 341)])
    func aCellsPixelsHavePagesOfTheirOwnHandedBackWithTheSurface(width: Int, height: Int) throws {
        let source = try pixbuf(width: 512, height: 341, alpha: false) { _, _ in [200, 100, 50] }
        var surface: CairoSurface? = source.surface(width: width, height: height, scale: 1)
        let pixels = try #require(surface.flatMap { cairo_image_surface_get_data($0.surface) })
        #expect(Int(bitPattern: pixels) % Int(sysconf(Int32(_SC_PAGESIZE))) == 0)
        #expect(isMapped(pixels))
        surface = nil
        #expect(!isMapped(pixels))
    }

    @Test func aPlainColourStaysExactAtAnySize() throws {
        let source = try pixbuf(width: 512, height: 341, alpha: false) { _, _ in [200, 100, 50] }
        for (width, height) in [(300, 200), (301, 201), (17, 11), (512, 341), (700, 466), (300, 342)] {
            let surface = source.surface(width: width, height: height, scale: 1)
            #expect((surface.pixelWidth, surface.pixelHeight) == (width, height))
            for (x, y) in [(0, 0), (width - 1, height - 1), (width / 2, height / 3)] {
                #expect(argb(surface, x, y) == [255, 200, 100, 50])
            }
        }
    }

    @Test func shrunkByLessThanHalfEachPixelIsInterpolatedBetweenTheSourcePixelsAroundItsCentre() throws {
        // Halved, each output pixel's centre lies midway between two source pixels.
        let halved = try pixbuf(width: 4, height: 2, alpha: false) { x, _ in [[0, 90, 180, 180][x], 0, 0] }
            .surface(width: 2, height: 1, scale: 1)
        #expect(argb(halved, 0, 0)[1] == 45)
        #expect(argb(halved, 1, 0)[1] == 180)
        // Three to two: the output pixels' centres lie at 0.75 and 2.25, a quarter past the first and second pixels'.
        let thirds = try pixbuf(width: 3, height: 1, alpha: false) { x, _ in [[0, 160, 240][x], 0, 0] }
            .surface(width: 2, height: 1, scale: 1)
        #expect(argb(thirds, 0, 0)[1] == 40)
        #expect(argb(thirds, 1, 0)[1] == 220)
    }

    /// Catmull-Rom interpolation of `sample` (clamped at the edges) at the centre of output pixel `index` of `target`
    /// along a side of `source` pixels.
    func catmullRom(_ index: Int, source: Int, target: Int, _ sample: (Int) -> Double) -> Double {
        let centre = (Double(index) + 0.5) * Double(source) / Double(target) - 0.5
        let base = Int(centre.rounded(.down))
        let t = centre - Double(base)
        let weights = [
            (-t * t * t + 2 * t * t - t) / 2, (3 * t * t * t - 5 * t * t + 2) / 2,
            (-3 * t * t * t + 4 * t * t + t) / 2, (t * t * t - t * t) / 2,
        ]
        return (0..<4).reduce(0) { $0 + weights[$1] * sample(min(max(base - 1 + $1, 0), source - 1)) }
    }

    /// Shrunk by less than a quarter, each pixel is interpolated from the four by four around its centre with
    /// Catmull-Rom's weights, read from the pixbuf itself or from its pixels with alpha alike; widths whose rows
    /// are no whole number of the fast passes' steps among them.
    @Test(arguments: [(64, 48, 53, 40), (61, 37, 47, 29), (9, 7, 7, 6)])
    func shrunkByLessThanAQuarterEachPixelIsACatmullRomInterpolation(
        sourceWidth: Int, sourceHeight: Int, width: Int, height: Int
    ) throws {
        var random = SystemRandomNumberGenerator()
        let values = (0..<(sourceWidth * sourceHeight)).map { _ in
            (0..<3).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        let rgb = try pixbuf(width: sourceWidth, height: sourceHeight, alpha: false) { x, y in
            values[y * sourceWidth + x]
        }
        let opaque = try pixbuf(width: sourceWidth, height: sourceHeight, alpha: true) { x, y in
            values[y * sourceWidth + x] + [255]
        }
        let direct = rgb.surface(width: width, height: height, scale: 1)
        let withAlpha = opaque.surface(width: width, height: height, scale: 1)
        var furthest = 0.0
        for y in 0..<height {
            for x in 0..<width {
                #expect(argb(direct, x, y) == argb(withAlpha, x, y))
                for channel in 0..<3 {
                    let expected = catmullRom(x, source: sourceWidth, target: width) { column in
                        catmullRom(y, source: sourceHeight, target: height) { row in
                            Double(values[row * sourceWidth + column][channel])
                        }
                    }
                    let distance = abs(Double(argb(direct, x, y)[1 + channel]) - min(max(expected, 0), 255))
                    furthest = max(furthest, distance)
                }
            }
        }
        #expect(furthest <= 1)
    }

    @Test func shrunkByMoreThanHalfEachPixelIsTheAverageOfTheAreaItCovers() throws {
        let quartered = try pixbuf(width: 8, height: 4, alpha: false) { x, _ in [UInt8(x < 4 ? 0 : 200), 0, 0] }
            .surface(width: 2, height: 1, scale: 1)
        #expect(argb(quartered, 0, 0)[1] == 0)
        #expect(argb(quartered, 1, 0)[1] == 200)
    }

    @Test func transparentPixelsLendNoColour() throws {
        // Opaque red beside fully transparent green: the average is half-transparent red, premultiplied.
        let source = try pixbuf(width: 2, height: 1, alpha: true) { x, _ in x == 0 ? [255, 0, 0, 255] : [0, 255, 0, 0] }
        let pixel = argb(source.surface(width: 1, height: 1, scale: 1), 0, 0)
        #expect((127...128).contains(pixel[0]) && pixel[1] == pixel[0] && pixel[2...] == [0, 0])
    }

    @Test func staysCloseToTheAverageOfTheAreaEachPixelCoversOnAPhotoLikePicture() throws {
        var random = SystemRandomNumberGenerator()
        let noise = (0..<(256 * 171)).map { _ in UInt8.random(in: 0...40, using: &random) }
        let source = try pixbuf(width: 256, height: 171, alpha: false) { x, y in
            let grain = noise[y * 256 + x]
            return [UInt8(x / 2) + grain, UInt8(y) + grain, UInt8((x + y) / 4) + grain]
        }
        let ours = source.surface(width: 150, height: 100, scale: 1)
        let theirs = source.scaled(width: 150, height: 100).surface(scale: 1)
        var difference = 0
        for y in 0..<100 {
            for x in 0..<150 {
                difference += zip(argb(ours, x, y), argb(theirs, x, y)).map { abs($0 - $1) }.reduce(0, +)
            }
        }
        // Interpolation reads every pixel when shrinking by less than half: it blurs a little less than averaging.
        #expect(Double(difference) / Double(150 * 100 * 3) < 3)
    }

    @Test func roundCornersAreCutAndNothingElseIsTouched() throws {
        let surface = try pixbuf(width: 64, height: 48, alpha: false) { _, _ in [10, 20, 30] }
            .surface(width: 40, height: 30, scale: 2, cornerRadius: 4)
        #expect((surface.logicalWidth, surface.logicalHeight) == (20, 15))
        for (x, y) in [(0, 0), (39, 0), (0, 29), (39, 29)] { #expect(argb(surface, x, y)[0] == 0) }
        // The radius is 8 device pixels: just inside the corner squares and everywhere else, opaque and unchanged.
        for (x, y) in [(8, 0), (0, 8), (31, 29), (39, 21), (20, 15), (4, 4)] {
            #expect(argb(surface, x, y) == [255, 10, 20, 30])
        }
        let corner = argb(surface, 1, 1)[0]
        #expect(corner < 255)
    }
}
