import CExempi
import Foundation
import GalleryCore

/// XMP packets written by Exempi (Adobe's XMP Toolkit), so that what exiv2, gThumb and digiKam parse is
/// XMP as the toolkit makes it, escaping and all. Safe on any thread: each call has its own packet.
public enum XMPPacket {
    private static let dublinCore = "http://purl.org/dc/elements/1.1/"
    private static let xmpBasic = "http://ns.adobe.com/xap/1.0/"

    /// The toolkit is set up once per process; `xmp_init` is not safe to race.
    private static let toolkitReady: Bool = xmp_init()

    /// A sidecar file's bytes for `sidecar`: UTF-8 RDF/XML without the packet wrapper, which is for XMP
    /// embedded in a file. `metadataDate` becomes `xmp:MetadataDate`. nil only when Exempi fails
    /// (it could not allocate, or refused a value).
    public static func sidecar(_ sidecar: ExportSidecar, metadataDate: Date = Date()) -> Data? {
        guard toolkitReady, let packet = xmp_new_empty() else { return nil }
        defer { xmp_free(packet) }
        var written = true
        func set(_ schema: String, _ name: String, _ value: String?) {
            guard let value else { return }
            written = written && xmp_set_property(packet, schema, name, value, 0)
        }
        func setText(_ name: String, _ value: String?) {
            guard let value else { return }
            written = written && xmp_set_localized_text(packet, dublinCore, name, "", "x-default", value, 0)
        }
        set(dublinCore, "source", sidecar.source)
        setText("title", sidecar.title)
        setText("description", sidecar.imageDescription)
        for relation in sidecar.relations {
            let bag = UInt32(XMP_PROP_VALUE_IS_ARRAY.rawValue)
            written = written && xmp_append_array_item(packet, dublinCore, "relation", bag, relation, 0)
        }
        set(dublinCore, "format", sidecar.mediaType)
        set(xmpBasic, "CreateDate", sidecar.added)
        set(xmpBasic, "MetadataDate", ISO8601DateFormatter().string(from: metadataDate))
        guard written, let buffer = xmp_string_new() else { return nil }
        defer { xmp_string_free(buffer) }
        let options = UInt32(XMP_SERIAL_OMITPACKETWRAPPER) | UInt32(XMP_SERIAL_ENCODEUTF8)
        guard xmp_serialize(packet, buffer, options, 0), let text = xmp_string_cstr(buffer) else { return nil }
        return Data(bytes: text, count: xmp_string_len(buffer))
    }
}
