import Foundation

/// The message as the native host hands it on to the app: the same shape, its bytes in it.
extension BrowserMessage {
    /// The message's JSON; an image's bytes announced by a transfer are left out (the host puts them in first).
    public var encoded: [UInt8] {
        var writer = JSONWriter()
        writer.object { writer in
            switch self {
            case .image(let image):
                writer.field("kind")
                writer.string("image")
                Self.writePage(image.page, title: image.pageTitle, into: &writer)
                writer.field("image")
                writer.object { writer in
                    writer.field("addresses")
                    writer.array { writer in
                        for address in image.addresses {
                            writer.element()
                            writer.string(address)
                        }
                    }
                    Self.write(["altText": image.altText, "title": image.title, "link": image.link], into: &writer)
                }
                if case .inline(let data, let mimeType) = image.bytes {
                    writer.field("bytes")
                    writer.object { writer in
                        writer.field("mimeType")
                        writer.string(mimeType)
                        writer.field("data")
                        writer.string(data.base64EncodedString())
                    }
                }
            case .page(let capture):
                writer.field("kind")
                writer.string("page")
                Self.writePage(capture.pageAddress, title: capture.pageTitle, into: &writer)
                writer.field("images")
                writer.array { writer in
                    for image in capture.images {
                        writer.element()
                        writer.object { writer in
                            writer.field("address")
                            writer.string(image.address)
                            Self.write(
                                ["altText": image.altText, "title": image.title, "link": image.link], into: &writer)
                            for (name, size) in [("width", image.width), ("height", image.height)] {
                                guard let size else { continue }
                                writer.field(name)
                                writer.integer(size)
                            }
                        }
                    }
                }
            case .chunk(let transfer, let bytes):
                writer.field("kind")
                writer.string("chunk")
                writer.field("transfer")
                writer.string(transfer)
                writer.field("data")
                writer.string(bytes.base64EncodedString())
            }
        }
        return writer.bytes
    }

    private static func writePage(_ address: String, title: String?, into writer: inout JSONWriter) {
        writer.field("page")
        writer.object { writer in
            writer.field("address")
            writer.string(address)
            write(["title": title], into: &writer)
        }
    }

    private static func write(_ fields: KeyValuePairs<String, String?>, into writer: inout JSONWriter) {
        for (name, value) in fields {
            guard let value else { continue }
            writer.field(name)
            writer.string(value)
        }
    }
}
