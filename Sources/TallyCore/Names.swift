import Foundation

/// How names are compared: ignoring case, diacritics and character width, so "Café",
/// "cafe" and "CAFE" are one budget while "Fast Food" and "Food" stay two.
public enum NameKey {
    public static func make(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Trims surrounding white space and checks what every name must satisfy.
    static func validated(_ name: String, kind: TallyError.NameKind, maximumLength: Int) throws(TallyError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyName(kind) }
        guard trimmed.count <= maximumLength else { throw .nameTooLong(kind, trimmed, maximum: maximumLength) }
        guard !trimmed.unicodeScalars.contains(where: \.isControlOrLineBreak) else {
            throw .nameHasControlCharacters(kind, trimmed)
        }
        return trimmed
    }
}

extension Unicode.Scalar {
    var isControlOrLineBreak: Bool {
        properties.generalCategory == .control || self == "\u{2028}" || self == "\u{2029}"
    }
}
