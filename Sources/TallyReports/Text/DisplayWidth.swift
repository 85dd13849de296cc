/// Terminal column widths, so tables stay aligned with CJK, emoji and combining characters: the
/// one implementation behind every table and the text report.
public enum DisplayWidth {
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// Two columns for wide East Asian characters and emoji (those shown as emoji by default or
    /// with the emoji variation selector), none for combining marks and format characters.
    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let properties = first.properties
        if properties.isEmojiPresentation { return 2 }
        if character.unicodeScalars.contains("\u{FE0F}"), properties.isEmoji { return 2 }
        if isWide(first) { return 2 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return 1
        }
    }

    /// Shortens `text` to at most `columns` columns, ending with `…` when cut.
    public static func truncated(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        var result = ""
        var width = 0
        for character in text {
            let characterWidth = of(character)
            guard width + characterWidth <= columns - 1 else { break }
            result.append(character)
            width += characterWidth
        }
        return result + "…"
    }

    /// `text` padded with spaces to `columns`, on the right unless `leading`.
    public static func padded(_ text: String, to columns: Int, leading: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, columns - of(text)))
        return leading ? padding + text : text + padding
    }

    /// East Asian Wide and Fullwidth ranges that matter in names: CJK, kana, Hangul, fullwidth forms.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }
}
