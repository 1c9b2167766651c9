import CGLib
import CGdkPixbuf

/// An image format gdk-pixbuf reads on this system (its built-in ones and the loaders installed).
public struct PixbufFormat: Sendable {
    public let mimeTypes: [String]
    /// Without the dot: "png", "jpeg".
    public let extensions: [String]

    /// Every format a loader can read now, in gdk-pixbuf's order.
    public static func readable() -> [PixbufFormat] {
        var formats: [PixbufFormat] = []
        let list = gdk_pixbuf_get_formats()
        var node = list
        while let current = node {
            if let data = current.pointee.data, case let format = OpaquePointer(data),
                gdk_pixbuf_format_is_disabled(format) == 0
            {
                formats.append(
                    PixbufFormat(
                        mimeTypes: strings(gdk_pixbuf_format_get_mime_types(format)),
                        extensions: strings(gdk_pixbuf_format_get_extensions(format))))
            }
            node = current.pointee.next
        }
        g_slist_free(list)
        return formats
    }

    /// Reads and frees a NULL-terminated string vector.
    private static func strings(_ vector: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
        guard let vector else { return [] }
        defer { g_strfreev(vector) }
        var result: [String] = []
        var index = 0
        while let string = vector[index] {
            result.append(String(cString: string))
            index += 1
        }
        return result
    }
}
