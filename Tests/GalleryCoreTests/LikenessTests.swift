import Foundation
import Testing

@testable import GalleryCore

/// A picture as RGB bytes, row by row, and what the web does to pictures.
private struct Picture {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// A photo-like picture: a lit gradient with soft blobs of colour, different for each seed.
    init(seed: UInt64, width: Int = 400, height: Int = 300) {
        var random = SplitMix64(seed: seed)
        let blobs = (0..<12).map { _ in
            (
                x: Double.random(in: 0...1, using: &random), y: Double.random(in: 0...1, using: &random),
                radius: Double.random(in: 0.05...0.35, using: &random),
                colour: (0..<3).map { _ in Double.random(in: 0...255, using: &random) }
            )
        }
        let background = (0..<3).map { _ in Double.random(in: 40...200, using: &random) }
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (u, v) = (Double(x) / Double(width), Double(y) / Double(height))
                var (r, g, b) = (background[0] * (0.6 + 0.4 * u), background[1] * (0.6 + 0.4 * u), background[2])
                for blob in blobs {
                    let d2 = ((u - blob.x) * (u - blob.x) + (v - blob.y) * (v - blob.y)) / (blob.radius * blob.radius)
                    let weight = d2 > 9 ? 0 : exp(-d2)
                    r += (blob.colour[0] - r) * weight
                    g += (blob.colour[1] - g) * weight
                    b += (blob.colour[2] - b) * weight
                }
                let start = (y * width + x) * 3
                pixels[start] = UInt8(min(max(r, 0), 255))
                pixels[start + 1] = UInt8(min(max(g, 0), 255))
                pixels[start + 2] = UInt8(min(max(b, 0), 255))
            }
        }
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    var likeness: Likeness { Likeness(grid) }

    var grid: ColourGrid {
        ColourGrid(pixels: pixels.span, width: width, height: height, rowBytes: width * 3, layout: .rgb)
    }

    func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * width + x) * 3..<(y * width + x) * 3 + 3]) }

    /// Smaller by `factor`, each pixel the mean of those it covers.
    func scaled(_ factor: Int) -> Picture {
        let (w, h) = (width / factor, height / factor)
        var out = [UInt8]()
        for y in 0..<h {
            for x in 0..<w {
                for channel in 0..<3 {
                    var sum = 0
                    for dy in 0..<factor {
                        for dx in 0..<factor {
                            sum += Int(pixels[((y * factor + dy) * width + x * factor + dx) * 3 + channel])
                        }
                    }
                    out.append(UInt8(sum / (factor * factor)))
                }
            }
        }
        return Picture(width: w, height: h, pixels: out)
    }

    /// Cut by `fraction` of each side, half of it on each edge.
    func cropped(_ fraction: Double) -> Picture {
        let (dx, dy) = (Int(Double(width) * fraction / 2), Int(Double(height) * fraction / 2))
        let (w, h) = (width - 2 * dx, height - 2 * dy)
        return Picture(width: w, height: h, pixels: (0..<h).flatMap { y in (0..<w).flatMap { pixel($0 + dx, y + dy) } })
    }

    /// Framed by `pixels` of white.
    func bordered(_ border: Int) -> Picture {
        let (w, h) = (width + 2 * border, height + 2 * border)
        return Picture(
            width: w, height: h,
            pixels: (0..<h).flatMap { y in
                (0..<w).flatMap { x in
                    let (sx, sy) = (x - border, y - border)
                    return sx >= 0 && sy >= 0 && sx < width && sy < height ? pixel(sx, sy) : [255, 255, 255]
                }
            })
    }

    /// Each channel through `curve`.
    func mapped(_ curve: (Double) -> Double) -> Picture {
        Picture(width: width, height: height, pixels: pixels.map { UInt8(min(max(curve(Double($0)), 0), 255)) })
    }

    /// With noise like a coarse recompression's.
    func noisy(seed: UInt64, amplitude: Int) -> Picture {
        var random = SplitMix64(seed: seed)
        return Picture(
            width: width, height: height,
            pixels: pixels.map {
                UInt8(min(max(Int($0) + Int.random(in: -amplitude...amplitude, using: &random), 0), 255))
            })
    }
}

@Suite struct LikenessTests {
    @Test func eachTransformOfAPictureIsANearDuplicate() {
        for seed in UInt64(1)...6 {
            let original = Picture(seed: seed)
            let copies: [(String, Picture)] = [
                ("half size", original.scaled(2)), ("quarter size", original.scaled(4)),
                ("4% crop", original.cropped(0.04)), ("3-pixel border", original.bordered(3)),
                ("brighter", original.mapped { $0 * 1.25 }),
                ("more contrast", original.mapped { ($0 - 128) * 1.2 + 128 }),
                ("noise", original.noisy(seed: seed, amplitude: 12)),
            ]
            for (name, copy) in copies {
                let distance = original.likeness.fingerprint.distance(to: copy.likeness.fingerprint)
                #expect(distance <= Likeness.nearDuplicateDistance, "\(name) of picture \(seed): \(distance)")
            }
        }
    }

    @Test func distinctPicturesAreApart() {
        let fingerprints = (UInt64(100)..<140).map { Picture(seed: $0, width: 160, height: 120).likeness.fingerprint }
        for (index, first) in fingerprints.enumerated() {
            for second in fingerprints[(index + 1)...] {
                #expect(first.distance(to: second) > Likeness.nearDuplicateDistance)
            }
        }
    }

    @Test func theGridIsTheSameWhateverTheLayout() {
        let picture = Picture(seed: 7, width: 90, height: 70)
        var rgba: [UInt8] = []
        var bgra: [UInt8] = []
        for start in stride(from: 0, to: picture.pixels.count, by: 3) {
            let (r, g, b) = (picture.pixels[start], picture.pixels[start + 1], picture.pixels[start + 2])
            rgba += [r, g, b, 255]
            bgra += [b, g, r, 255]
        }
        // Rows padded as pixbufs and surfaces pad them.
        var padded: [UInt8] = []
        for row in 0..<70 { padded += rgba[row * 360..<(row + 1) * 360] + [9, 9, 9, 9] }
        #expect(ColourGrid(pixels: rgba.span, width: 90, height: 70, rowBytes: 360, layout: .rgba) == picture.grid)
        #expect(
            ColourGrid(pixels: bgra.span, width: 90, height: 70, rowBytes: 360, layout: .premultipliedBGRA)
                == picture.grid)
        #expect(ColourGrid(pixels: padded.span, width: 90, height: 70, rowBytes: 364, layout: .rgba) == picture.grid)
    }

    @Test func transparencyIsSeenOverWhiteAndTinyPicturesFillTheGrid() {
        let clear = [UInt8](repeating: 0, count: 5 * 3 * 4)
        let grid = ColourGrid(pixels: clear.span, width: 5, height: 3, rowBytes: 20, layout: .rgba)
        #expect(grid.red.allSatisfy { $0 == 1 } && grid.blue.allSatisfy { $0 == 1 })
        let tiny = Picture(seed: 3, width: 7, height: 5)
        #expect(Set(tiny.grid.red).count > 1)
    }

    @Test func thePaletteNamesTheDominantColoursWithTheirShares() {
        // Three-quarters red, a quarter blue.
        let row: [UInt8] = (0..<100).flatMap { x -> [UInt8] in x < 75 ? [220, 20, 30] : [20, 40, 200] }
        let pixels = [[UInt8]](repeating: row, count: 100).flatMap { $0 }
        let palette = Palette(ColourGrid(pixels: pixels.span, width: 100, height: 100, rowBytes: 300, layout: .rgb))
        let swatches = palette.swatches
        #expect(swatches.count == 2)
        let red = OklabColour(red: 220 / 255, green: 20 / 255, blue: 30 / 255)
        let blue = OklabColour(red: 20 / 255, green: 40 / 255, blue: 200 / 255)
        #expect(swatches[0].colour.distance(to: red) < 0.05 && abs(swatches[0].share - 0.75) < 0.05)
        #expect(swatches[1].colour.distance(to: blue) < 0.05 && abs(swatches[1].share - 0.25) < 0.05)
        #expect(Palette(rawValue: palette.rawValue) == palette)
    }

    @Test func savedValuesReadBackAndNonsenseIsRefused() {
        let likeness = Picture(seed: 9, width: 64, height: 48).likeness
        #expect(Fingerprint(likeness.fingerprint.description) == likeness.fingerprint)
        #expect(Fingerprint("not a fingerprint") == nil)
        #expect(Fingerprint("0123456789abcdefff") == nil)
        #expect(Palette(rawValue: 0) == nil)
        // A share after a swatch with none.
        #expect(Palette(rawValue: 0xF000_0000_1000_0000) == nil)
        #expect(Palette(rawValue: likeness.palette.rawValue) == likeness.palette)
    }

    @Test func aLikenessReadsBackFromItsSavedTextAndFromNothingElse() throws {
        let likeness = Picture(seed: 9, width: 64, height: 48).likeness
        let text = likeness.savedText
        #expect(Likeness(savedText: text) == likeness)
        #expect(Likeness(savedText: text.uppercased()) == likeness)
        let parts = text.split(separator: ".").map(String.init)
        let fingerprint: String = parts[0]
        let palette: String = try #require(parts.last)
        let tail: String = String(fingerprint.dropFirst())
        let others: [String] = [
            "", ".", text + "0", String(text.dropLast()), fingerprint + "," + palette, fingerprint + palette + ".",
            "+" + tail + "." + palette, fingerprint + ".-" + String(palette.dropFirst()), "g" + tail + "." + palette,
            fingerprint + ".0000000000000000", "é" + String(tail.dropFirst()) + "." + palette,
        ]
        for other in others {
            #expect(Likeness(savedText: other) == nil, "\(other)")
        }
    }

    @Test func oklabRoundTripsSRGB() {
        for (r, g, b) in [(0, 0, 0), (1, 1, 1), (1, 0, 0), (0.2, 0.7, 0.4)] as [(Float, Float, Float)] {
            let back = OklabColour(red: r, green: g, blue: b).srgb
            #expect(abs(back.red - r) < 0.002 && abs(back.green - g) < 0.002 && abs(back.blue - b) < 0.002)
        }
        #expect(abs(OklabColour(red: 1, green: 1, blue: 1).l - 1) < 0.001)
    }
}

@Suite struct FingerprintIndexTests {
    @Test func everyFingerprintWithinTheDistanceIsFoundAsAScanFindsIt() {
        var random = SplitMix64(seed: 45)
        // Random fingerprints, and near copies of some of them: a few bits flipped.
        var values = (0..<20_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) }
        for index in 0..<2_000 {
            var value = values[index]
            for _ in 0..<Int.random(in: 0...16, using: &random) {
                value ^= 1 << UInt64.random(in: 0..<64, using: &random)
            }
            values.append(value)
        }
        let fingerprints = values.map(Fingerprint.init(rawValue:))
        let index = FingerprintIndex(fingerprints)
        for distance in [0, 3, 8, 10, 12, 14, 20] {
            for query in (0..<200).map({ _ in fingerprints.randomElement(using: &random)! }) {
                let scanned = fingerprints.indices.filter { fingerprints[$0].distance(to: query) <= distance }
                let found = index.numbers(within: distance, of: query)
                #expect(found.sorted() == scanned, "distance \(distance)")
            }
        }
    }

    @Test func anEmptyIndexFindsNothing() {
        #expect(FingerprintIndex([]).numbers(within: 10, of: Fingerprint(rawValue: 5)).isEmpty)
    }
}
