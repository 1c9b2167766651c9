import Foundation

/// Files that declare a huge picture in a few kB, or cost minutes to draw, one per format (the same
/// as Tests/e2e/harness/hostile.py), and small ordinary files of the formats decoded in the decoder process.
enum HostileImages {
    static let huge = 30_000

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    private static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
    private static func be16(_ value: Int) -> [UInt8] { le16(value).reversed() }
    private static func be32(_ value: Int) -> [UInt8] { le32(value).reversed() }

    /// An uncompressed RGB TIFF whose directories declare these sizes (each in one strip), with 4 kB of pixels.
    static func tiff(_ sizes: [(width: Int, height: Int)]) -> [UInt8] {
        var file: [UInt8] = Array("II*\0".utf8) + le32(8)
        for (index, size) in sizes.enumerated() {
            let entries: [(tag: Int, type: Int, value: Int)] = [
                (256, 4, size.width), (257, 4, size.height), (258, 3, 8), (259, 3, 1), (262, 3, 2), (273, 4, 0),
                (277, 3, 3), (278, 4, size.height), (279, 4, 4096),
            ]
            let next = index + 1 < sizes.count ? file.count + 2 + entries.count * 12 + 4 : 0
            file += le16(entries.count)
            for entry in entries {
                file += le16(entry.tag) + le16(entry.type) + le32(1)
                file += entry.type == 3 ? le16(entry.value) + [0, 0] : le32(entry.value)
            }
            file += le32(next)
        }
        return file + [UInt8](repeating: 0, count: 4096)
    }

    /// The headers of a 4:2:0 JPEG of `width`×`height`, progressive (SOF2) or baseline (SOF0), and a scan.
    static func jpeg(width: Int, height: Int, progressive: Bool) -> [UInt8] {
        let quantization: [UInt8] = [0xFF, 0xDB] + be16(67) + [0] + [UInt8](repeating: 1, count: 64)
        let frame: [UInt8] =
            [0xFF, progressive ? 0xC2 : 0xC0] + be16(17) + [8] + be16(height) + be16(width)
            + [3, 1, 0x22, 0, 2, 0x11, 0, 3, 0x11, 0]
        let scan: [UInt8] = [0xFF, 0xDA] + be16(12) + [3, 1, 0, 2, 0, 3, 0, 0, 63, 0]
        return [0xFF, 0xD8] + quantization + frame + scan + [UInt8](repeating: 0, count: 2048) + [0xFF, 0xD9]
    }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + Array(type.utf8) + payload
    }

    /// An AVIF or HEIF (`brand` "avif", "heic") whose item properties declare `width`×`height` (`ispe`).
    static func isoMedia(brand: String, width: Int, height: Int) -> [UInt8] {
        let ispe = box("ispe", [0, 0, 0, 0] + be32(width) + be32(height))
        let meta = box("meta", [0, 0, 0, 0] + box("iprp", box("ipco", ispe)))
        return box("ftyp", Array(brand.utf8) + [0, 0, 0, 0] + Array("mif1".utf8)) + meta
            + box("mdat", [UInt8](repeating: 0, count: 4096))
    }

    static func xpm(width: Int, height: Int) -> [UInt8] {
        let rows = (0..<4).map { _ in "\"" + String(repeating: ".", count: 16) + "\"" }.joined(separator: ",\n")
        return Array(
            "/* XPM */\nstatic char *bomb[] = {\n\"\(width) \(height) 1 1\",\n\". c #ff0000\",\n\(rows)\n};\n".utf8)
    }

    static func xbm(width: Int, height: Int) -> [UInt8] {
        let bits = [String](repeating: "0xff", count: 512).joined(separator: ", ")
        return Array(
            "#define bomb_width \(width)\n#define bomb_height \(height)\nstatic unsigned char bomb_bits[] = {\n\(bits)};\n"
                .utf8)
    }

    /// A 16×16 GIF whose one frame declares `width`×`height`.
    static func gifWithFrame(width: Int, height: Int) -> [UInt8] {
        let screen = Array("GIF89a".utf8) + le16(16) + le16(16) + [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        let frame = [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [0]
        return screen + frame + [2, 2, 0x4C, 0x01, 0] + [0x3B]
    }

    /// An icon whose one entry says 256×256 and holds a PNG header of `width`×`height`.
    static func icoWithPNG(width: Int, height: Int) -> [UInt8] {
        let png = TestImages.pngClaiming(width: width, height: height)
        return le16(0) + le16(1) + le16(1) + [0, 0, 0, 0] + le16(1) + le16(32) + le32(png.count) + le32(22) + png
    }

    /// An SVG whose every pixel runs a turbulence filter of a hundred thousand octaves, a hundred times over.
    static let slowSVG: [UInt8] = {
        let uses = (0..<100).map { "<use xlink:href=\"#r\" x=\"\($0)\"/>" }.joined()
        return Array(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" \
            height="400"><defs><filter id="f" x="0" y="0" width="400" height="400" filterUnits="userSpaceOnUse">\
            <feTurbulence baseFrequency="0.05" numOctaves="100000"/></filter>\
            <rect id="r" width="400" height="400" filter="url(#f)"/></defs>\(uses)</svg>
            """.utf8)
    }()

    // MARK: Ordinary files, 4×3 and red (ImageMagick's)

    static let svg = Array(
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="red"/></svg>
        """.utf8)

    static let xpm = Array(
        """
        /* XPM */
        static char *small[] = {
        "4 3 1 1 ",
        "  c red",
        "    ",
        "    ",
        "    "
        };

        """.utf8)

    static let ppm = Array("P3\n4 3\n255\n".utf8) + Array(String(repeating: "255 0 0\n", count: 12).utf8)

    static let smallTIFF = [UInt8](
        Data(
            base64Encoded: """
                SUkqACwAAAD/AAD/AAD/AAD/AAD/AAD/AAD/AAD/AAD/AAD/AAD/AAD/AAAPAAABAwABAAAABAAAAAEBAwABAAAAAwAAAAIB\
                AwADAAAA5gAAAAMBAwABAAAAAQAAAAYBAwABAAAAAgAAAAoBAwABAAAAAQAAABEBBAABAAAACAAAABIBAwABAAAAAQAAABUB\
                AwABAAAAAwAAABYBAwABAAAAAwAAABcBBAABAAAAJAAAABwBAwABAAAAAQAAACkBAwACAAAAAAABAD4BBQACAAAAHAEAAD8B\
                BQAGAAAA7AAAAAAAAAAIAAgACACF61EAAACAAMP1qAAAAAACzcxMAAAAAAHNzEwAAACAAM3MTAAAAAACj8L1AAAAABA3GqAA\
                AAAAAiuHCgAAACAA
                """)!)

    static let ico = [UInt8](
        Data(
            base64Encoded: """
                AAABAAEABAMAAAEAIABkAAAAFgAAACgAAAAEAAAABgAAAAEAIAAAAAAAMAAAAAAAAAAAAAAAAAAAAAAAAAAAAP//AAD//wAA\
                //8AAP//AAD//wAA//8AAP//AAD//wAA//8AAP//AAD//wAA//8AAAAAAAAAAAAAAAA=
                """)!)

    static let tga = [UInt8](
        Data(base64Encoded: "AAACAAAAAAAAAAAABAADABgAAAD/AAD/AAD/AAD/AAD/AAD/AAD/AAD/AAD/AAD/AAD/AAD/")!)
}
