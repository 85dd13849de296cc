/// Just enough Arabic shaping and right-to-left ordering for names on a chart.
///
/// libgd draws code points left to right without shaping, so Arabic would come out as
/// isolated letters in reverse order. Letters are replaced by their contextual presentation
/// forms (Unicode block FE70–FEFF, which DejaVu Sans covers) and right-to-left runs are reversed.
enum ArabicShaping {
    /// `text` in drawing order, unchanged when it holds no right-to-left letters.
    static func visual(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isRightToLeft) else { return text }
        return reordered(shaped(text))
    }

    private enum Joining {
        case dual, right, causing, transparent, none
    }

    /// The first presentation form (isolated) of each letter 0622...064A that has forms; letters
    /// joining on both sides have four consecutive forms, right-joining ones two.
    private static let forms: [UInt32: (isolated: UInt32, joining: Joining)] = {
        let rightJoining: Set<UInt32> = [0x622, 0x623, 0x624, 0x625, 0x627, 0x629, 0x62F, 0x630, 0x631, 0x632, 0x648, 0x649]
        var table: [UInt32: (UInt32, Joining)] = [0x621: (0xFE80, .none)]
        var next: UInt32 = 0xFE81
        for letter in UInt32(0x622)...0x64A where !(0x63B...0x640).contains(letter) {
            let joining: Joining = rightJoining.contains(letter) ? .right : .dual
            table[letter] = (next, joining)
            next += joining == .right ? 2 : 4
        }
        return table
    }()

    private static func joining(_ scalar: Unicode.Scalar) -> Joining {
        if let form = forms[scalar.value] { return form.joining }
        switch scalar.value {
        case 0x640, 0x200D: return .causing
        case 0x610...0x61A, 0x64B...0x65F, 0x670, 0x6D6...0x6ED: return .transparent
        default: return .none
        }
    }

    private static func joinsForward(_ joining: Joining) -> Bool { joining == .dual || joining == .causing }
    private static func joinsBackward(_ joining: Joining) -> Bool { joining != .none && joining != .transparent }

    private static func shaped(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let joinings = scalars.map(joining)
        func neighbour(of index: Int, step: Int) -> Joining {
            var position = index + step
            while position >= 0, position < scalars.count, joinings[position] == .transparent { position += step }
            return position >= 0 && position < scalars.count ? joinings[position] : .none
        }
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard let form = forms[scalar.value] else {
                result.append(scalar)
                index += 1
                continue
            }
            let afterJoining = joinsForward(neighbour(of: index, step: -1))
            if scalar.value == 0x644, index + 1 < scalars.count, let ligature = lamAlef[scalars[index + 1].value] {
                result.append(Unicode.Scalar(ligature + (afterJoining ? 1 : 0)) ?? scalar)
                index += 2
                continue
            }
            let beforeJoining = form.joining == .dual && joinsBackward(neighbour(of: index, step: 1))
            let offset: UInt32 =
                switch (afterJoining && form.joining != .none, beforeJoining) {
                case (false, false): 0
                case (true, false): 1
                case (false, true): 2
                case (true, true): 3
                }
            result.append(Unicode.Scalar(form.isolated + offset) ?? scalar)
            index += 1
        }
        return String(result)
    }

    private static let lamAlef: [UInt32: UInt32] = [0x622: 0xFEF5, 0x623: 0xFEF7, 0x625: 0xFEF9, 0x627: 0xFEFB]

    private static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x590...0x8FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF: true
        default: false
        }
    }

    private static func isStrongLeftToRight(_ character: Character) -> Bool {
        character.unicodeScalars.first.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) } ?? false
    }

    /// A simplified bidi pass for one line that starts right to left when its first strong
    /// letter does: right-to-left runs (with the spaces between them) are reversed, and the runs
    /// themselves are laid out right to left.
    private static func reordered(_ text: String) -> String {
        var runs: [(rtl: Bool, characters: [Character])] = []
        var pendingNeutrals: [Character] = []
        for character in text {
            let rtl = character.unicodeScalars.first.map(isRightToLeft) ?? false
            if !rtl, !isStrongLeftToRight(character) {
                pendingNeutrals.append(character)
                continue
            }
            if let last = runs.last, last.rtl == rtl {
                runs[runs.count - 1].characters += pendingNeutrals + [character]
            } else {
                if !pendingNeutrals.isEmpty { runs.append((false, pendingNeutrals)) }
                runs.append((rtl, [character]))
            }
            pendingNeutrals = []
        }
        if !pendingNeutrals.isEmpty { runs.append((false, pendingNeutrals)) }
        let paragraphIsRTL = runs.first(where: { $0.characters.contains(where: { !isNeutral($0) }) })?.rtl ?? false
        let ordered = paragraphIsRTL ? runs.reversed() : runs
        return String(ordered.flatMap { $0.rtl ? Array($0.characters.reversed()) : $0.characters })
    }

    private static func isNeutral(_ character: Character) -> Bool {
        !(character.unicodeScalars.first.map(isRightToLeft) ?? false) && !isStrongLeftToRight(character)
    }
}
