import Foundation

/// The one way the app's own small JSON files (its settings, a window's size, records of this computer's,
/// an export's `gallery.json`) are read and written: through the state file's reader and writer, read with
/// `FileReader` up to a cap, laid out as the state file is.
public enum JSONFile {
    /// The largest such file read: a record of a few thousand entries.
    public static let limit = 4 * 1024 * 1024

    /// The value the file at `path` holds; nil when it is missing, larger than `limit`, or no JSON.
    public static func read(_ path: String, limit: Int = limit) -> JSONValue? {
        (try? FileReader.read(path, limit: limit)).flatMap(value)
    }

    /// The value `data` holds as a whole; nil when it is no JSON.
    public static func value(_ data: Data) -> JSONValue? {
        try? JSONReader.read([UInt8](data)) { (reader) throws(JSONReader.Failure) in try reader.readValue() }
    }

    /// `value` as JSON text, two spaces a level, fields sorted by name.
    public static func text(_ value: JSONValue) -> Data {
        var writer = JSONWriter()
        writer.value(value)
        return Data(writer.bytes)
    }
}
