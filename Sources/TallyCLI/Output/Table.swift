/// A plain-text table: columns padded to the widest cell, amounts right-aligned.
///
/// Widths count terminal columns rather than characters, so names in CJK scripts or with
/// emoji, which take two columns each, still line up.
struct Table {
    enum Alignment { case left, right }

    struct Column {
        let title: String
        let alignment: Alignment

        static func left(_ title: String) -> Column { Column(title: title, alignment: .left) }
        static func right(_ title: String) -> Column { Column(title: title, alignment: .right) }
    }

    let columns: [Column]
    var rows: [[String]] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The header and a rule unless `header` is false, then each row; lines carry no trailing spaces.
    func rendered(header showsHeader: Bool = true) -> String {
        let header = columns.map(\.title)
        var widths = showsHeader ? header.map(Table.displayWidth) : header.map { _ in 0 }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], Table.displayWidth(cell))
            }
        }
        var lines: [String] = []
        if showsHeader {
            lines.append(line(header, widths: widths))
            lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        }
        lines += rows.map { line($0, widths: widths) }
        return lines.joined(separator: "\n")
    }

    private func line(_ cells: [String], widths: [Int]) -> String {
        var parts: [String] = []
        for (index, column) in columns.enumerated() {
            let cell = index < cells.count ? cells[index] : ""
            let padding = String(repeating: " ", count: max(widths[index] - Table.displayWidth(cell), 0))
            parts.append(column.alignment == .right ? padding + cell : cell + padding)
        }
        var text = parts.joined(separator: "  ")
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Terminal columns `text` takes: two for wide East Asian characters and emoji, one otherwise.
    static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { $0 + displayWidth($1) }
    }

    static func displayWidth(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let properties = first.properties
        if properties.isEmojiPresentation { return 2 }
        if character.unicodeScalars.contains("\u{FE0F}"), properties.isEmoji { return 2 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return properties.generalCategory == .nonspacingMark || properties.generalCategory == .format ? 0 : 1
        }
    }
}
