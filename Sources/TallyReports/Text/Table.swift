/// A plain-text table: columns padded to the widest cell, amounts right-aligned.
///
/// Widths count terminal columns rather than characters, so names in CJK scripts or with
/// emoji, which take two columns each, still line up.
public struct Table: Sendable {
    public enum Alignment: Sendable { case left, right }

    public struct Column: Sendable {
        let title: String
        let alignment: Alignment

        public static func left(_ title: String) -> Column { Column(title: title, alignment: .left) }
        public static func right(_ title: String) -> Column { Column(title: title, alignment: .right) }
    }

    public let columns: [Column]
    public private(set) var rows: [[String]] = []

    public init(_ columns: [Column]) {
        self.columns = columns
    }

    public mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The header and a rule unless `header` is false, then each row; lines carry no trailing spaces.
    public func rendered(header showsHeader: Bool = true) -> String {
        let header = columns.map(\.title)
        var widths = showsHeader ? header.map(DisplayWidth.of) : header.map { _ in 0 }
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], DisplayWidth.of(cell))
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
            let padding = String(repeating: " ", count: max(widths[index] - DisplayWidth.of(cell), 0))
            parts.append(column.alignment == .right ? padding + cell : cell + padding)
        }
        var text = parts.joined(separator: "  ")
        while text.last == " " { text.removeLast() }
        return text
    }
}
