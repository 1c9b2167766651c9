/// Text for a place that shows one short line (GNOME Shell's search results): line breaks, tabs and other control
/// characters become spaces, the ends lose their spaces, and past `maximumCharacters` characters (grapheme clusters,
/// as a reader counts them, so no accent or flag is split) the text is cut and ends in "…". Only the leading spaces
/// and the characters kept are read: a note of megabytes costs what its first line costs.
public enum OneLine {
    public static func of(_ text: some StringProtocol, maximumCharacters: Int) -> String {
        guard maximumCharacters > 0 else { return "" }
        var line = ""
        var count = 0
        var cut = false
        for character in text.drop(while: \.isWhitespace) {
            guard count < maximumCharacters else {
                cut = true
                break
            }
            line.append(isBreak(character) ? " " : character)
            count += 1
        }
        guard cut else { return trimmedEnd(line) }
        // The ellipsis takes the last character's place.
        return trimmedEnd(String(line.dropLast())) + "…"
    }

    private static func isBreak(_ character: Character) -> Bool {
        character.isNewline || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func trimmedEnd(_ text: String) -> String {
        var text = text
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
