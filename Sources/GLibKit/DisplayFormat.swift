import CGLib
import Foundation

/// Sizes and dates in the user's words, as GLib writes them for the locale the app runs in
/// (Foundation's formatters ignore `LANG` on Linux).
public enum DisplayFormat {
    /// "1.2 MB (1,234,567 bytes)", in the locale's numbers and units.
    public static func byteSize(_ bytes: Int) -> String {
        guard let chars = g_format_size_full(guint64(max(bytes, 0)), G_FORMAT_SIZE_LONG_FORMAT) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }

    /// `date` in the local time zone, written with `format` (`g_date_time_format`'s: `%B` a month's name in
    /// the locale's language); nil when GLib cannot write it.
    public static func date(_ date: Date, format: String) -> String? {
        guard let utc = g_date_time_new_from_unix_utc(gint64(date.timeIntervalSince1970)) else { return nil }
        defer { g_date_time_unref(utc) }
        guard let local = g_date_time_to_local(utc) else { return nil }
        defer { g_date_time_unref(local) }
        guard let chars = g_date_time_format(local, format) else { return nil }
        defer { g_free(chars) }
        return String(cString: chars)
    }
}
