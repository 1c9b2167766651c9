import Foundation

/// A message from the browser extension, read and checked whole before anything acts on it. The shape is
/// documented in the Browser extension article (GalleryCore.docc); every field has a type and a bound, and a
/// message that breaks one is refused with a short reason.
public enum BrowserMessage: Equatable, Sendable {
    /// "Send Image to Image Gallery".
    case image(BrowserImage)
    /// "Send All Images on This Page": the page's images as the browser loaded them.
    case page(PageCapture)
    /// A part of an image's bytes too large for one message, kept by the native host until the image comes.
    case chunk(transfer: String, bytes: Data)

    /// Why a message was refused.
    public struct Failure: Error, Equatable, Sendable {
        public let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The largest message the native host reads from the browser (Chromium's bound for the other way).
    public static let maximumMessageBytes = 1 << 20
    /// The largest message the app reads from the native host: an image of the download limit in base64, and
    /// the rest of a message.
    public static let maximumForwardedBytes = Int(ImageLimits.maximumDownloadBytes) / 3 * 4 + 4 + maximumMessageBytes
    /// The longest address kept; a longer one is refused.
    public static let maximumAddressBytes = 16_384
    /// Alt text, titles: kept to one line of this many characters.
    public static let maximumTextCharacters = 2_000

    /// Reads `bytes` as one message, of at most `limit` bytes.
    public static func parse(_ bytes: [UInt8], limit: Int = maximumMessageBytes) throws(Failure) -> BrowserMessage {
        guard bytes.count <= limit else {
            throw Failure(untranslated("the message is \(bytes.count) bytes, over the limit of \(limit)"))
        }
        let value: JSONValue
        do {
            value = try JSONReader.read(bytes) { (reader) throws(JSONReader.Failure) in try reader.readValue() }
        } catch {
            throw Failure(untranslated("the message is not JSON (at byte \(error.offset))"))
        }
        guard value.object != nil else { throw Failure(untranslated("the message must be a JSON object")) }
        switch try string(value["kind"], "kind") {
        case "image": return .image(try image(value))
        case "page": return .page(try page(value))
        case "chunk":
            let transfer = try transferID(value["transfer"], "transfer")
            return .chunk(transfer: transfer, bytes: try base64(value["data"], "data"))
        case let kind: throw Failure(untranslated("unknown kind “\(OneLine.of(kind, maximumCharacters: 40))”"))
        }
    }

    private static func image(_ value: JSONValue) throws(Failure) -> BrowserImage {
        let (page, pageTitle) = try pageFields(value["page"])
        guard let image = value["image"], image.object != nil else {
            throw Failure(untranslated("“image” must be an object"))
        }
        var addresses: [String] = []
        if let listed = image["addresses"] {
            guard let elements = listed.array, elements.count <= ImageLimits.maximumAddressesPerImage else {
                throw Failure(
                    untranslated(
                        "“image.addresses” must be an array of up to \(ImageLimits.maximumAddressesPerImage) addresses")
                )
            }
            for element in elements {
                let address = try string(element, "image.addresses[]")
                if let url = try httpAddress(address, "image.addresses[]"), !addresses.contains(url) {
                    addresses.append(url)
                }
            }
        }
        if let srcset = try optionalString(image["srcset"], "image.srcset") {
            let base = URL(string: page)
            let candidates = SrcSet.parse(srcset).compactMap { candidate -> SrcSet.Candidate? in
                guard
                    let url = URLClassifier.httpURL(URL(string: candidate.url, relativeTo: base)?.absoluteString ?? "")
                else { return nil }
                var resolved = candidate
                resolved.url = url.absoluteString
                return resolved
            }
            for url in SrcSet.largestFirst(candidates, keeping: ImageLimits.maximumAddressesPerImage - 1)
            where !addresses.contains(url) {
                addresses.append(url)
            }
        }
        if let address = try optionalString(image["address"], "image.address") {
            // A `blob:` or `data:` address cannot be fetched again: its bytes come instead.
            if let url = try httpAddress(address, "image.address"), !addresses.contains(url) {
                addresses.append(url)
            }
        }
        addresses = Array(addresses.prefix(ImageLimits.maximumAddressesPerImage))
        let bytes = try self.bytes(value["bytes"])
        guard !addresses.isEmpty || bytes != nil else {
            throw Failure(untranslated("an image needs an http or https address or its bytes"))
        }
        return BrowserImage(
            page: page, pageTitle: pageTitle, addresses: addresses,
            altText: try text(image["altText"], "image.altText"),
            title: try text(image["title"], "image.title"),
            link: try link(image["link"], "image.link"),
            bytes: bytes)
    }

    private static func page(_ value: JSONValue) throws(Failure) -> PageCapture {
        let (page, pageTitle) = try pageFields(value["page"])
        guard let elements = value["images"]?.array else { throw Failure(untranslated("“images” must be an array")) }
        var images: [PageImage] = []
        var seen: Set<String> = []
        for (index, element) in elements.enumerated() {
            let name = "images[\(index)]"
            guard element.object != nil else { throw Failure(untranslated("“\(name)” must be an object")) }
            let address = try string(element["address"], name + ".address")
            // What the page loaded from `blob:` or `data:` addresses has no address the picker can fetch.
            guard let url = try httpAddress(address, name + ".address"), seen.insert(url).inserted else { continue }
            images.append(
                PageImage(
                    address: url, altText: try text(element["altText"], name + ".altText"),
                    title: try text(element["title"], name + ".title"),
                    link: try link(element["link"], name + ".link"),
                    width: try size(element["width"], name + ".width"),
                    height: try size(element["height"], name + ".height")))
        }
        return PageCapture(pageAddress: page, pageTitle: pageTitle, images: images)
    }

    private static func pageFields(_ value: JSONValue?) throws(Failure) -> (String, String?) {
        guard let value, value.object != nil else { throw Failure(untranslated("“page” must be an object")) }
        let address = try string(value["address"], "page.address")
        guard let url = try httpAddress(address, "page.address") else {
            throw Failure(untranslated("“page.address” must be an http or https address"))
        }
        return (url, try text(value["title"], "page.title"))
    }

    private static func bytes(_ value: JSONValue?) throws(Failure) -> BrowserBytes? {
        guard let value, value != .null else { return nil }
        guard value.object != nil else { throw Failure(untranslated("“bytes” must be an object")) }
        let mimeType = try string(value["mimeType"], "bytes.mimeType").lowercased()
        guard mimeType.hasPrefix("image/"), mimeType.count <= 100 else {
            throw Failure(untranslated("“bytes.mimeType” must be an image type"))
        }
        if value["transfer"] != nil {
            let id = try transferID(value["transfer"], "bytes.transfer")
            guard let length = value["length"]?.integer, length > 0, length <= ImageLimits.maximumDownloadBytes else {
                throw Failure(untranslated("“bytes.length” must be a whole number of bytes up to the download limit"))
            }
            return .transfer(id: id, length: length, mimeType: mimeType)
        }
        let data = try base64(value["data"], "bytes.data")
        guard !data.isEmpty else { throw Failure(untranslated("“bytes.data” is empty")) }
        return .inline(
            data, mimeType: ImageFormat.sniff(data.prefix(ImageFormat.sniffedByteCount))?.mimeType ?? mimeType)
    }

    private static let transferIDBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_".utf8)

    private static func transferID(_ value: JSONValue?, _ name: String) throws(Failure) -> String {
        let id = try string(value, name)
        // A name of letters, digits, "-" and "_" only: it never becomes part of a path, but it is echoed back.
        guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy(transferIDBytes.contains)
        else { throw Failure(untranslated("“\(name)” must be 1 to 64 letters, digits, “-” or “_”")) }
        return id
    }

    private static func base64(_ value: JSONValue?, _ name: String) throws(Failure) -> Data {
        let text = try string(value, name)
        guard let data = Data(base64Encoded: text) else { throw Failure(untranslated("“\(name)” must be base64")) }
        return data
    }

    private static func httpAddress(_ address: String, _ name: String) throws(Failure) -> String? {
        guard address.utf8.count <= maximumAddressBytes else {
            throw Failure(untranslated("“\(name)” is longer than \(maximumAddressBytes) bytes"))
        }
        return URLClassifier.httpURL(address)?.absoluteString
    }

    /// A link's http(s) address; nil for none, or one of another scheme (`javascript:`).
    private static func link(_ value: JSONValue?, _ name: String) throws(Failure) -> String? {
        guard let address = try optionalString(value, name) else { return nil }
        return try httpAddress(address, name)
    }

    private static func size(_ value: JSONValue?, _ name: String) throws(Failure) -> Int? {
        guard let value, value != .null else { return nil }
        guard let size = value.integer, (0...ImageLimits.maximumSide).contains(size) else {
            throw Failure(untranslated("“\(name)” must be a whole number of pixels"))
        }
        return size
    }

    private static func string(_ value: JSONValue?, _ name: String) throws(Failure) -> String {
        guard let text = value?.string else { throw Failure(untranslated("“\(name)” must be a string")) }
        return text
    }

    private static func optionalString(_ value: JSONValue?, _ name: String) throws(Failure) -> String? {
        guard let value, value != .null else { return nil }
        return try string(value, name)
    }

    /// Text shown in the app: one line, bounded; nil when blank.
    private static func text(_ value: JSONValue?, _ name: String) throws(Failure) -> String? {
        guard let raw = try optionalString(value, name) else { return nil }
        let line = OneLine.of(raw, maximumCharacters: maximumTextCharacters)
        return line.isEmpty ? nil : line
    }
}
