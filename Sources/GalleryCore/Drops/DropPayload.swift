import Foundation

// Drop-payload parsing, pure and GTK-free: X11 selection target name + raw bytes -> candidate image sources.
//
// Firefox and Chromium hand over different things for the same image (Chromium offers no text/uri-list
// and sends its text/html as UTF-16 with a BOM); DropPayloadTests.swift replays what each sent, byte
// for byte. The app asks `mayContainImage(offered:)` while hovering, reads `targetsToRequest(offered:)`
// the first time a drag moves over a window, and `images(received:)` turns what came into the dropped
// images in drop order; each is then fetched by `url`, then `alternateURLs`, then `fallbackBytes`.

/// Reads what a drag or a paste offers into the images it holds.
public enum DropPayload {

    // MARK: Targets

    /// The targets a window registers for drops from other applications, in its order of preference: what
    /// browsers and file managers hand over that may hold an image, each one this parser reads.
    public static let acceptedTargets = [
        "text/uri-list", "text/x-moz-url", "_NETSCAPE_URL", "text/html", "text/plain;charset=utf-8", "UTF8_STRING",
        "text/plain", "STRING", "image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp",
        "image/svg+xml", "application/octet-stream",
    ]

    /// Every offered target this parser understands, best first: URL targets (`text/uri-list`,
    /// `text/x-moz-url`, `_NETSCAPE_URL`, `text/html`, plain-text targets), then raw-bytes targets
    /// (`application/octet-stream`, `image/png`, `image/webp`, `image/avif`, `image/jpeg`, `image/gif`, other
    /// `image/*`).
    /// Names are returned exactly as offered (they are X atom names to request).
    public static func preferredTargets(offered: [String]) -> [String] {
        var seen = Set<String>()
        var ranked: [(rank: Int, index: Int, name: String)] = []
        for (index, name) in offered.enumerated() {
            let key = normalizedTarget(name)
            guard let rank = TargetKind(key).rank, seen.insert(key).inserted else { continue }
            ranked.append((rank, index, name))
        }
        return ranked.sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }.map(\.name)
    }

    /// The few targets to request on drop, in this order: the best URL target (the best plain-text target when
    /// no URL-list target is offered), `text/html` when offered (it holds the `<img>` when the URL is a link's page or
    /// a search-engine thumbnail), and the best raw-bytes target (the fallback when the download fails).
    public static func targetsToRequest(offered: [String]) -> [String] {
        let ranked = preferredTargets(offered: offered)
        let kinds = ranked.map { TargetKind(normalizedTarget($0)) }
        var result: [String] = []
        if let i = kinds.firstIndex(where: \.isURLList) ?? kinds.firstIndex(where: \.isText) {
            result.append(ranked[i])
        }
        if let i = kinds.firstIndex(where: \.isHTML) { result.append(ranked[i]) }
        if let i = kinds.firstIndex(where: \.isBytes) { result.append(ranked[i]) }
        return result
    }

    /// Whether a drag offering these targets can carry an image, judged from target names alone (while
    /// hovering the data is not visible): true when a URL-list, `text/html`, `image/*` or
    /// `application/octet-stream` target is offered; false for plain-text-only drags and unknown targets.
    public static func mayContainImage(offered: [String]) -> Bool {
        offered.contains { kind in
            let k = TargetKind(normalizedTarget(kind))
            return k.isURLList || k.isHTML || k.isBytes
        }
    }

    // MARK: Parsing one target

    /// The image sources one target's data holds, best first, one per image, duplicates removed.
    /// Unknown targets, empty, malformed or non-image data give []. Never traps.
    /// `baseURL` resolves relative `<img src>` in `text/html` (a `<base href>` in the HTML also does);
    /// without one, relative URLs are ignored.
    public static func sources(target: String, data: [UInt8], baseURL: URL? = nil) -> [ImageSource] {
        candidates(kind: TargetKind(normalizedTarget(target)), data: data[...], baseURL: baseURL, followsFiles: true)
            .candidates.compactMap(\.sources.first)
    }

    /// `sources(target:data:baseURL:)` for `Data`.
    public static func sources(target: String, data: Data, baseURL: URL? = nil) -> [ImageSource] {
        sources(target: target, data: [UInt8](data), baseURL: baseURL)
    }

    // MARK: Combining several targets

    /// Combines the data received for several targets of one drop (target name -> bytes) into the
    /// distinct images dropped, in order. The best URL target gives the images; `text/html` replaces a
    /// link's page URL by the `<img>` inside it, upgrades to the largest `srcset` candidates (at most
    /// `ImageLimits.maximumAddressesPerImage`), and is used alone when no URL target came; the bytes target becomes
    /// `fallbackBytes` when the drop is a single image (alone, it is the image).
    /// `offered` are the targets the drag or clipboard offered (the received ones when nil): when they show web
    /// content (`isWebContent`), `file:` addresses are left out, as they always are from `text/html`.
    /// Linear in the data's length; addresses longer than `ImageLimits.maximumAddressLength` are left out unread.
    public static func contents(received: [String: [UInt8]], offered: [String]? = nil, baseURL: URL? = nil)
        -> DropContents
    {
        var contents = combine(
            received: received, baseURL: baseURL, followsFiles: !isWebContent(offered: offered ?? Array(received.keys)))
        contents.images = describe(contents.images, received: received, baseURL: baseURL)
        return contents
    }

    /// The images of `contents(received:offered:baseURL:)`. Empty when nothing usable was received.
    public static func images(received: [String: [UInt8]], offered: [String]? = nil, baseURL: URL? = nil)
        -> [DroppedImage]
    {
        contents(received: received, offered: offered, baseURL: baseURL).images
    }

    /// `images(received:offered:baseURL:)` for `Data`.
    public static func images(received: [String: Data], offered: [String]? = nil, baseURL: URL? = nil)
        -> [DroppedImage]
    {
        images(received: received.mapValues { [UInt8]($0) }, offered: offered, baseURL: baseURL)
    }

    /// Whether a drag or a clipboard offering these targets comes from web content: browsers offer targets of
    /// their own (`text/html`, `text/x-moz-url`, `chromium/…`) and a page chooses what every target carries,
    /// while file managers offer a `text/uri-list` without them.
    public static func isWebContent(offered: [String]) -> Bool {
        offered.contains { name in
            let key = normalizedTarget(name)
            let kind = TargetKind(key)
            return kind.isHTML || kind == .netscapeURL || key.hasPrefix("text/x-moz-") || key.hasPrefix("text/_moz_")
                || key.hasPrefix("application/x-moz-") || key.hasPrefix("chromium/")
        }
    }

    // MARK: Helpers

    /// Classifies one URL string (e.g. pasted text or an `<img src>`): absolute http(s) → `.remote`
    /// (search-engine wrapper unwrapped), `file://` → `.file`, image `data:` → `.dataURI`; relative
    /// references only with `baseURL`; anything else (javascript:, about:, ftp:, garbage) → nil.
    public static func imageSource(fromURLString string: String, baseURL: URL? = nil) -> ImageSource? {
        URLClassifier.classify(string, baseURL: baseURL)?.source
    }

    /// The image URL inside a search-engine result link (`imgurl=` Google `/imgres`, `mediaurl=` Bing,
    /// `img_url=` Yandex; percent-decoded once, or twice when still encoded), repeatedly; `url` itself otherwise.
    /// `imgrefurl` and generic `url=`/`q=` redirects are not unwrapped: they lead to pages, not images.
    public static func unwrapSearchEngineURL(_ url: URL) -> URL {
        URLClassifier.unwrap(url).url
    }

    /// Decodes a `data:` URI with an `image/*` media type (base64 or percent-encoded payload).
    /// nil for other media types, an empty or malformed payload, or content that contradicts a known image type.
    /// `mimeType` is recognised from the content when possible, else the declared one (lowercased, no parameters).
    public static func decodeDataURI(_ uri: String) -> (mimeType: String, data: Data)? {
        DataURI.decode(uri)
    }

    /// How many bytes a `data:` URI with an image media type decodes to, counted without decoding it; nil
    /// when `decodeDataURI` would refuse it.
    public static func dataURIByteCount(_ uri: String) -> Int? {
        DataURI.inspect(uri)?.byteCount
    }

}
