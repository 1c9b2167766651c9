import CIntl
import Foundation

/// The app's name, version and text domain: one place, kept equal to Meson's project version by a test.
public enum AppInfo {
    public static let version = "0.1.0"
    /// The gettext domain: catalogs are `<locale dir>/<language>/LC_MESSAGES/image-gallery.mo`.
    public static let textDomain = "image-gallery"
    public static let website = "https://github.com/imagegallery/ImageGallery"
}

/// Messages in the user's language through gettext. A message names what it fills in as
/// `{name}`, so translators can put it where their language wants it.
public enum Localization {
    /// Takes the language from the environment (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) and reads
    /// catalogs from `localeDirectory`; before this, every message is its English original.
    public static func start(localeDirectory: String?) {
        setlocale(LC_ALL, "")
        if let localeDirectory { bindtextdomain(AppInfo.textDomain, localeDirectory) }
        bind_textdomain_codeset(AppInfo.textDomain, "UTF-8")
        textdomain(AppInfo.textDomain)
    }

    /// Whether `directory` holds a catalog of this app for some language.
    public static func holdsCatalogs(_ directory: URL) -> Bool {
        let languages = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return languages.contains {
            FileManager.default.fileExists(
                atPath: directory.appendingPathComponent("\($0)/LC_MESSAGES/\(AppInfo.textDomain).mo").path)
        }
    }

    /// An integer as the user's locale writes it ("12 345" in French): the C library's LC_NUMERIC groups its digits, as
    /// GLib's and GNOME's apps write numbers, so that writing one reads no ICU data.
    public static func number(_ value: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        cintl_format_grouped(&buffer, buffer.count, value)
        return text(of: buffer)
    }

    /// A fraction from 0 to 1 as a whole percentage ("45 %" in French).
    public static func percent(_ fraction: Double) -> String {
        let whole = Int((min(max(fraction, 0), 1) * 100).rounded())
        // Translators: a whole percentage, as in "45%". French writes a narrow no-break space before the sign, Russian
        // a no-break space.
        return tr("{number}%", ["number": number(whole)])
    }

    /// A number with at most one digit after the locale's decimal point ("0,8" in French, "2" rather than "2.0").
    public static func tenths(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        guard rounded != rounded.rounded(), abs(rounded) < 1e15 else { return number(Int(rounded)) }
        var buffer = [CChar](repeating: 0, count: 64)
        cintl_format_tenths(&buffer, buffer.count, rounded)
        return text(of: buffer)
    }

    private static func text(of buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// In one pass, so a value that itself holds "{…}" (a gallery named so) stays as it is.
    static func fill(_ message: String, _ values: [String: String]) -> String {
        guard !values.isEmpty else { return message }
        var result = ""
        var rest = message[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let key = String(rest[rest.index(after: open)..<close])
            result += values[key] ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}

/// `message` in the user's language, its `{placeholders}` filled from `values`.
public func tr(_ message: String, _ values: [String: String] = [:]) -> String {
    // gettext may hand back the very pointer it was given: it is read while that is alive.
    let translated = message.withCString { String(cString: gettext($0)) }
    return Localization.fill(translated, values)
}

/// The singular or plural form the user's language wants for `count` (languages have up to six);
/// `{count}` is filled in as the locale writes numbers.
public func trPlural(_ singular: String, _ plural: String, _ count: Int, _ values: [String: String] = [:]) -> String {
    let form = singular.withCString { one in
        plural.withCString { other in String(cString: ngettext(one, other, UInt(max(count, 0)))) }
    }
    return Localization.fill(form, values.merging(["count": Localization.number(count)]) { own, _ in own })
}

/// Text that stays as written in every language: a file format's field or a program's name in a
/// file's metadata. Said at the call, so a reader (and the translation test) sees it was chosen.
public func untranslated(_ text: String) -> String { text }

/// Marks `message` for the catalog without translating it: what consumes it translates it (a
/// GtkBuilder property marked `translatable="yes"`). Named as gettext's tools look for it.
// swift-format-ignore: AlwaysUseLowerCamelCase
public func N_(_ message: String) -> String { message }
