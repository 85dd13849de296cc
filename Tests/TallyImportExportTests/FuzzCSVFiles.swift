import Foundation
import TallyTestSupport
import Testing
import TallyCore
@testable import TallyImportExport

/// A CSV file with the options it is imported with, kept as text so that a mutation can break
/// the options as well as the bytes.
struct CSVFile: CustomStringConvertible {
    var bytes: [UInt8]
    var columns: String?
    var dateFormat: String?
    var defaultBudget: String?
    var expenseSign: ExpenseSign
    var delimiter: CSVReader.Delimiter
    var expenseCount: Int

    static let names = [
        "Bread", "Bread, rye", #"Bus "12""#, "Café au lait", "カフェ", "שלום עליכם", "💸 Taxi", "<b>bold</b>",
        "'; DROP TABLE expense; --", "  padded  ", "a", String(repeating: "x", count: 200), "Line;with;semicolons",
    ]
    static let budgets = ["Food", "food", "Café", "Cafe", "Travel & Fun", "Ünïcödé", "日用品"]
    static let tags = ["", "weekly", "a;b", ";;x;", "Gift", "tag with space", "ＷＩＤＥ"]
    static let dateFormats = ["yyyy-MM-dd", "dd.MM.yyyy", "d/M/yyyy", "MM/dd/yyyy", "yyyyMMdd", "yyyy.M.d"]
    /// Headers a bank export might use instead of Tally's, for `--columns`.
    static let bankHeaders: [ImportField: String] = [
        .date: "Buchungstag", .budget: "Kategorie", .name: "Verwendungszweck", .amount: "Betrag (EUR)",
        .quantity: "Menge", .tags: "Labels",
    ]

    /// Pieces that CSV readers and cell parsers trip over, including bytes that are not UTF-8.
    static let tokens: [[UInt8]] = [
        ",", ",", "\"", "\"", "\n", "\n", "\r\n", "\r", ";", "\t", " ", "-", "+", ".", "0", "1", "9", "12.50", "-3.00",
        "2024-02-29", "2023-02-29", "29.02.2024", "0000-00-00", "99999999999.99", "1000000000.01", "1e3", "0x10",
        "Food", "date", "budget", "name", "amount", "quantity", "tags", "\u{FEFF}", "\u{0}", "\u{7}", "\u{202E}",
        "💸", "é", "\u{301}", "NaN", "１２", "\"\"", "\",\"", String(repeating: "long,", count: 400),
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]]

    var description: String {
        let text = String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription
        return "\(text) columns: \(columns ?? "-"), date format: \(dateFormat ?? "-"), budget: \(defaultBudget ?? "-"), "
            + "\(expenseSign), \(delimiter)"
    }

    func options() throws(TallyError) -> CSVImportOptions {
        var options = CSVImportOptions(defaultBudget: defaultBudget, expenseSign: expenseSign, delimiter: delimiter)
        if let columns { options.columns = try ColumnMapping(parsing: columns) }
        if let dateFormat { options.dateFormat = try DateFormat(pattern: dateFormat) }
        return options
    }

    /// A file that imports: the default header (any case, order and optional columns) or a
    /// bank's header named with `--columns`, any date format, sign and delimiter, quoted cells,
    /// blank lines, incoming money and zero amounts.
    static func valid(using random: inout FuzzRandom) -> CSVFile {
        let explicit = random.chance(0.35)
        var fields: [ImportField] = [.date, .name, .amount]
        for optional in [ImportField.budget, .quantity, .tags] where random.chance(0.75) { fields.append(optional) }
        fields.shuffle(using: &random)
        var header = fields.map { field in
            explicit ? bankHeaders[field] ?? field.rawValue : random.chance(0.2) ? " \(field.rawValue.uppercased()) " : field.rawValue
        }
        var extra: Int?
        if random.chance(0.3) {
            extra = Int.random(in: 0...header.count, using: &random)
            header.insert("Notes", at: extra ?? 0)
        }
        var file = CSVFile(
            bytes: [], columns: nil, dateFormat: nil, defaultBudget: nil,
            expenseSign: random.chance(0.3) ? .negative : .positive,
            delimiter: random.pick([.comma, .comma, .semicolon, .tab]), expenseCount: 0)
        if explicit {
            file.columns = fields.shuffled(using: &random).map { "\($0.rawValue)=\(bankHeaders[$0] ?? "")" }.joined(separator: ",")
        }
        if !fields.contains(.budget) || random.chance(0.2) { file.defaultBudget = random.pick(budgets) }
        let format = random.chance(0.4) ? random.pick(dateFormats) : "yyyy-MM-dd"
        if format != "yyyy-MM-dd" || random.chance(0.1) { file.dateFormat = format }

        let lineEnd = random.chance(0.3) ? "\r\n" : "\n"
        var lines = [file.record(header, using: &random)]
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            let kind = Int.random(in: 0..<10, using: &random)
            if kind == 0 {
                lines.append("")
                continue
            }
            let cents = Int64.random(in: 1...(random.chance(0.1) ? 100_000_000_000 : 100_000), using: &random)
            var amount = Money(cents: cents).plainString
            if kind == 1 {
                amount = "0.00"
            } else {
                let incoming = kind == 2
                if (file.expenseSign == .negative) != incoming { amount = random.chance(0.5) ? "-" + amount : amount + "-" }
                if !incoming { file.expenseCount += 1 }
            }
            let cells: [String] = fields.map { field in
                switch field {
                case .date: CSVFile.format(random.day(), format)
                case .name: random.pick(names)
                case .amount: amount
                case .budget: file.defaultBudget != nil && random.chance(0.5) ? "" : random.pick(budgets)
                case .quantity: random.chance(0.3) ? "" : String(Int.random(in: 1...(random.chance(0.5) ? 9 : 1_000_000), using: &random))
                case .tags: random.pick(tags)
                case .by: random.pick(["", "anna", " Ben ", "Zoë"])
                case .currency, .rate: ""
                }
            }
            var row = cells
            if let extra { row.insert(random.chance(0.5) ? "" : "note, \"quoted\"", at: extra) }
            lines.append(file.record(row, using: &random))
        }
        var text = lines.joined(separator: lineEnd) + (random.chance(0.7) ? lineEnd : "")
        if random.chance(0.1) { text = "\u{FEFF}" + text }
        file.bytes = Array(text.utf8)
        return file
    }

    /// Cells joined by the delimiter, quoted when they must be and sometimes when they need not be.
    func record(_ cells: [String], using random: inout FuzzRandom) -> String {
        let delimiter = Character(Unicode.Scalar(self.delimiter.rawValue))
        return cells.map { cell in
            let needsQuotes = cell.contains(where: { $0 == delimiter || $0 == "\"" || $0.isNewline })
            guard needsQuotes || random.chance(0.1) else { return cell }
            return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: String(delimiter))
    }

    static func format(_ day: (year: Int, month: Int, day: Int), _ pattern: String) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        var text = pattern
        for (token, value) in [("yyyy", padded(day.year, 4)), ("MM", padded(day.month, 2)), ("dd", padded(day.day, 2))] {
            text = text.replacingOccurrences(of: token, with: value)
        }
        if !pattern.contains("MM") { text = text.replacingOccurrences(of: "M", with: String(day.month)) }
        if !pattern.contains("dd") { text = text.replacingOccurrences(of: "d", with: String(day.day)) }
        return text
    }

    /// One to four edits of the bytes, and sometimes of an option.
    mutating func mutate(using random: inout FuzzRandom) {
        bytes = random.mutateBytes(bytes, tokens: CSVFile.tokens)
        guard random.chance(0.1) else { return }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: columns = random.mutateText(columns ?? "date=date,name=name,amount=amount")
        case 1: dateFormat = random.mutateText(dateFormat ?? "yyyy-MM-dd")
        case 2: defaultBudget = random.mutateText(defaultBudget ?? "Food")
        default: delimiter = random.pick([.comma, .semicolon, .tab])
        }
    }
}
