import Foundation
import Testing

@testable import GalleryCore

/// The sources read as text: every word people see goes through gettext, and every catalog
/// translates every message completely.
///
/// What counts as words people see: a string literal (its interpolations left out) that holds a
/// lowercase word next to another word ("file not found", "Drag here to delete") or is one
/// capitalised word ("Trash", "Undo"). Identifiers, style classes, action names, MIME types,
/// file names, acronyms ("JPEG XL") and GTK accelerators are none of these. Such a literal must be
/// the message of `tr(`, `trPlural(` or `N_(`, unless it only tests input: an operand of `==` or
/// `!=`, a `case` pattern, the argument of `hasPrefix`/`hasSuffix`, or a key combination given as
/// `accelerator:`/`accelerators:`; or it is said at the call to stay as written: `untranslated(`.
@Suite struct TranslationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The modules whose text reaches people (GtkKit and GLibKit only bind GTK and the libraries under it; they
    /// have no words of their own).
    static let translatedModules = ["Sources/ImageGalleryUI", "Sources/GalleryCore"]

    @Test func everyWordPeopleSeeIsMarkedForTranslation() throws {
        var unmarked: [String] = []
        for file in try Self.swiftFiles() {
            for literal in SwiftLiterals.scan(try String(contentsOf: file, encoding: .utf8)) where literal.isWords {
                if !literal.isMessage && !literal.onlyTestsInput {
                    unmarked.append("\(file.lastPathComponent):\(literal.line): \"\(literal.text)\"")
                }
            }
        }
        #expect(
            unmarked.isEmpty,
            "not marked for translation (wrap in tr(), trPlural() or N_()):\n\(unmarked.joined(separator: "\n"))")
    }

    @Test func messagesArePlainLiterals() throws {
        // The catalog is looked up by the literal as written: an interpolated one never matches.
        var interpolated: [String] = []
        for file in try Self.swiftFiles() {
            for literal in SwiftLiterals.scan(try String(contentsOf: file, encoding: .utf8))
            where literal.isMessage && literal.hasInterpolation {
                interpolated.append("\(file.lastPathComponent):\(literal.line)")
            }
        }
        #expect(interpolated.isEmpty, "a message with \\( ): use {placeholders}: \(interpolated)")
    }

    @Test(arguments: ["fr", "ru"]) func catalogTranslatesEveryMessageCompletely(language: String) throws {
        let catalog = try Catalog(contentsOf: Self.root.appendingPathComponent("data/po/\(language).po"))
        var problems: [String] = []
        for file in try Self.swiftFiles() {
            for message in SwiftLiterals.messages(in: try String(contentsOf: file, encoding: .utf8)) {
                guard let entry = catalog.entries[message.id] else {
                    problems.append("missing: \(message.id)")
                    continue
                }
                if entry.fuzzy { problems.append("fuzzy: \(message.id)") }
                if entry.plural != message.plural { problems.append("plural differs: \(message.id)") }
                let wanted = message.plural == nil ? 1 : catalog.pluralForms
                if entry.translations.count != wanted || entry.translations.contains(where: \.isEmpty) {
                    problems.append("untranslated or wrong number of forms: \(message.id)")
                }
                // A translation fills in what the original does, no less (plural forms may leave
                // out {count} only where the original does) and nothing it does not know.
                let known = placeholders(message.id).union(placeholders(message.plural ?? ""))
                for translation in entry.translations
                where !placeholders(translation).isSubset(of: known.union(["count"]))
                    || !placeholders(message.id).subtracting(["count"]).isSubset(of: placeholders(translation))
                {
                    problems.append("placeholders differ: \(message.id) → \(translation)")
                }
            }
        }
        #expect(problems.isEmpty, "\(language).po:\n\(problems.joined(separator: "\n"))")
    }

    @Test func pluralFormsAreRussiansThree() throws {
        #expect(try Catalog(contentsOf: Self.root.appendingPathComponent("data/po/ru.po")).pluralForms == 3)
        #expect(try Catalog(contentsOf: Self.root.appendingPathComponent("data/po/fr.po")).pluralForms == 2)
    }

    @Test func theRuleCatchesWhatItShould() {
        let source = """
            let a = Label("Drag here to delete")
            root.accessibleName = "Trash"
            let b = Label(tr("No Images Yet"))
            let c = trPlural("Image moved", "{count} images moved", n)
            switch key { case "Left", "Right": break }
            if name == "Escape" {}
            add("trash-zone"); open("win.paste"); type("image/png"); shortcut(accelerator: "Left Right", N_("Move"))
            let d = "\\(name) — Image Gallery"
            """
        let words = SwiftLiterals.scan(source).filter(\.isWords)
        #expect(
            words.filter { !$0.isMessage && !$0.onlyTestsInput }.map { $0.text.trimmingCharacters(in: .whitespaces) }
                == ["Drag here to delete", "Trash", "— Image Gallery"])
        #expect(SwiftLiterals.messages(in: source).map(\.id) == ["No Images Yet", "Image moved", "Move"])
    }

    @Test func theVersionIsMesonsAndTheLatestRelease() throws {
        let meson = try String(
            contentsOf: Self.root.appendingPathComponent("meson_helpers/meson.build"), encoding: .utf8)
        #expect(meson.contains("version: '\(AppInfo.version)'"))
        let metainfo = try String(
            contentsOf: Self.root.appendingPathComponent("data/io.github.imagegallery.ImageGallery.metainfo.xml.in"),
            encoding: .utf8)
        let latest = metainfo.range(of: #"<release version="([^"]+)""#, options: .regularExpression).map {
            String(metainfo[$0])
        }
        #expect(latest == "<release version=\"\(AppInfo.version)\"")
    }

    @Test func placeholdersAreFilledInOnePass() {
        #expect(Localization.fill("Gallery “{name}” deleted", ["name": "{count}"]) == "Gallery “{count}” deleted")
        #expect(Localization.fill("{a}{b}", ["a": "1", "b": "2"]) == "12")
        #expect(Localization.fill("{unknown} stays", ["a": "1"]) == "{unknown} stays")
    }

    @Test func numbersAreWrittenAsTheLocaleWritesThem() throws {
        #expect(try numbers(in: "C") == ["1234567", "45%", "0.8", "2", "-3"])
        #expect(try numbers(in: "fr_FR.UTF-8") == ["1\u{202F}234\u{202F}567", "45%", "0,8", "2", "-3"])
    }

    /// Written in `locale` on this thread alone (the other tests run beside it): 1234567, 45 %, 0.84, 1.96, -3.
    private func numbers(in locale: String) throws -> [String] {
        let numeric = try #require(newlocale(1 << LC_NUMERIC, locale, nil), "the \(locale) locale is not installed")
        defer { freelocale(numeric) }
        let previous = uselocale(numeric)
        defer { uselocale(previous) }
        return [
            Localization.number(1_234_567), Localization.percent(0.454), Localization.tenths(0.84),
            Localization.tenths(1.96), Localization.number(-3),
        ]
    }

    private func placeholders(_ text: String) -> Set<String> {
        Set(text.matches(of: /\{([a-z]+)\}/).map { String($0.output.1) })
    }

    static func swiftFiles() throws -> [URL] {
        try translatedModules.flatMap { module -> [URL] in
            let folder = root.appendingPathComponent(module)
            let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter {
                $0.hasSuffix(".swift")
            }
            return paths.sorted().map { folder.appendingPathComponent($0) }
        }
    }
}

/// String literals of Swift source, each with the code just before it: enough to tell a message
/// given to gettext from a literal only compared with input.
struct SwiftLiterals {
    struct Literal {
        /// The literal's characters, interpolations and escapes left out (XML tags too, in a multi-line one).
        var text: String
        var line: Int
        var hasInterpolation: Bool
        /// The code between the previous literal (at the same nesting) and this one.
        var codeBefore: String
        /// The code from the start of its line to the literal.
        var lineBefore: String
        /// The first argument of trPlural: the next literal is its plural.
        var opensPlural = false
        var isMessage = false

        var isWords: Bool {
            text.contains(/\p{Ll}{2,}[ \u{A0}]+\p{L}|\p{L}[ \u{A0}]+\p{Ll}{2,}/)
                || text.wholeMatch(of: /\s*\p{Lu}\p{Ll}+[.…]?\s*/) != nil
        }

        var onlyTestsInput: Bool {
            codeBefore.contains(/(==|!=)\s*$/) || codeBefore.contains(/\.(hasPrefix|hasSuffix)\(\s*$/)
                || codeBefore.contains(/accelerators?:\s*\[?\s*$/) || codeBefore.contains(/\buntranslated\(\s*$/)
                || isCasePattern
        }

        /// Between `case` and the colon that ends its patterns.
        private var isCasePattern: Bool {
            guard let keyword = lineBefore.ranges(of: /(^|[{};])\s*case\s/).last else { return false }
            return !lineBefore[keyword.upperBound...].replacing(/"[^"]*"/, with: "").contains(":")
        }
    }

    struct Message {
        var id: String
        var plural: String?
    }

    static func scan(_ source: String) -> [Literal] {
        var scanner = Scanner(Array(source))
        return scanner.scanCode(until: nil)
    }

    /// What gettext will be asked for: the messages of tr(), trPlural() and N_().
    static func messages(in source: String) -> [Message] {
        let literals = scan(source)
        var messages: [Message] = []
        for (index, literal) in literals.enumerated() where literal.isMessage && !literal.hasInterpolation {
            if index > 0, literals[index - 1].opensPlural { continue }
            let plural = literal.opensPlural && index + 1 < literals.count ? literals[index + 1].text : nil
            messages.append(Message(id: literal.text, plural: plural))
        }
        return messages
    }

    private struct Scanner {
        let characters: [Character]
        var position = 0
        var line = 1

        init(_ characters: [Character]) { self.characters = characters }

        func at(_ text: String) -> Bool {
            let wanted = Array(text)
            return position + wanted.count <= characters.count
                && Array(characters[position..<position + wanted.count]) == wanted
        }

        mutating func advance(_ count: Int = 1) {
            for _ in 0..<count where position < characters.count {
                if characters[position] == "\n" { line += 1 }
                position += 1
            }
        }

        /// The character a backslash escape stands for (the backslash already read).
        mutating func escaped() -> String {
            guard position < characters.count else { return "" }
            let letter = characters[position]
            advance()
            switch letter {
            case "n": return "\n"
            case "t": return "\t"
            case "0": return "\0"
            case "u":
                var hex = ""
                advance()  // {
                while position < characters.count && characters[position] != "}" {
                    hex.append(characters[position])
                    advance()
                }
                advance()  // }
                return UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init).map { String($0) } ?? ""
            default: return String(letter)
            }
        }

        /// The source from the start of the current line to here.
        func lineSoFar() -> String {
            var start = position
            while start > 0 && characters[start - 1] != "\n" { start -= 1 }
            return String(characters[start..<position])
        }

        /// Code up to `closing` (the `)` that ends an interpolation; nil: the end of the file).
        mutating func scanCode(until closing: Character?) -> [Literal] {
            var literals: [Literal] = []
            var code = ""
            var depth = 0
            while position < characters.count {
                if at("//") {
                    while position < characters.count && characters[position] != "\n" { advance() }
                } else if at("/*") {
                    while position < characters.count && !at("*/") { advance() }
                    advance(2)
                } else if at("\"") {
                    let multiline = at("\"\"\"")
                    var literal = Literal(
                        text: "", line: line, hasInterpolation: false, codeBefore: code, lineBefore: lineSoFar())
                    if let previous = literals.last, previous.opensPlural, code.wholeMatch(of: /\s*,\s*/) != nil {
                        literal.isMessage = true
                    } else if code.contains(/\b(tr|N_)\(\s*$/) {
                        literal.isMessage = true
                    } else if code.contains(/\btrPlural\(\s*$/) {
                        literal.isMessage = true
                        literal.opensPlural = true
                    }
                    var inner: [Literal] = []
                    advance(multiline ? 3 : 1)
                    var text = ""
                    while position < characters.count && !(multiline ? at("\"\"\"") : at("\"")) {
                        if at("\\(") {
                            advance(2)
                            literal.hasInterpolation = true
                            inner += scanCode(until: ")")
                            text += " "
                        } else if at("\\") {
                            advance()
                            text += escaped()
                        } else {
                            text.append(characters[position])
                            advance()
                        }
                    }
                    advance(multiline ? 3 : 1)
                    literal.text = multiline ? text.replacing(/<[^>]*>/, with: " ") : text
                    literals.append(literal)
                    literals += inner
                    code = ""
                } else {
                    let character = characters[position]
                    if character == "(" { depth += 1 }
                    if character == ")" {
                        if depth == 0, closing == ")" {
                            advance()
                            return literals
                        }
                        depth -= 1
                    }
                    code.append(character)
                    advance()
                }
            }
            return literals
        }
    }
}

/// A gettext catalog (.po), read as far as these tests need.
struct Catalog {
    struct Entry {
        var plural: String?
        var translations: [String]
        var fuzzy: Bool
    }

    var entries: [String: Entry] = [:]
    var pluralForms = 1

    init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        for block in text.components(separatedBy: "\n\n") {
            var fields: [(key: String, value: String)] = []
            var fuzzy = false
            for line in block.split(separator: "\n") {
                if line.hasPrefix("#,") && line.contains("fuzzy") { fuzzy = true }
                if line.hasPrefix("#") { continue }
                if let match = line.wholeMatch(of: /(msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"/) {
                    fields.append((String(match.output.1), Self.unescape(String(match.output.2))))
                } else if let match = line.wholeMatch(of: /"(.*)"/), !fields.isEmpty {
                    fields[fields.count - 1].value += Self.unescape(String(match.output.1))
                }
            }
            guard let id = fields.first(where: { $0.key == "msgid" })?.value else { continue }
            let translations = fields.filter { $0.key.hasPrefix("msgstr") }.map(\.value)
            if id.isEmpty {
                if let match = translations.first?.firstMatch(of: /nplurals=(\d+)/) {
                    pluralForms = Int(match.output.1) ?? 1
                }
                continue
            }
            entries[id] = Entry(
                plural: fields.first { $0.key == "msgid_plural" }?.value, translations: translations, fuzzy: fuzzy)
        }
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\\"", with: "\"")
            .replacingOccurrences(of: "\\\\", with: "\\")
    }
}
