import TallyCore

// `:86:` details differ per bank. Three layouts are read:
// - German/Austrian structured: a three-digit business code, then `?nn` subfields: `?00` the
//   posting text, `?20`–`?29` and `?60`–`?63` the remittance, `?30` the BIC, `?31` the account,
//   `?32`/`?33` the name.
// - Dutch slash style (ABN AMRO, ING, Rabobank): `/KEY/value` pairs such as `/NAME/`, `/IBAN/`,
//   `/REMI/`, and Rabobank's `/CNTP/account/BIC/name/city/`.
// - Anything else: free text, taken as the name.
// Banks wrap the field at 65 (or 27) characters anywhere, so structured lines are joined
// without a separator; free text lines with a space.

struct MT940Details: Equatable {
    var name = ""
    var remittance = ""
    var counterparty: String?
    /// The posting text (`?00`), a better last resort for a name than the `:61:` type code.
    var postingText = ""

    init() {}

    /// Reads the field's lines, already split at the file's line breaks.
    init(_ lines: [[UInt8]]) {
        let joined = MT940Text.join(lines, separator: nil)
        if joined.count >= 4, joined[0..<3].allSatisfy(StatementBytes.isDigit), joined[3] == UInt8(ascii: "?") {
            self.init(german: joined)
        } else if joined.first == UInt8(ascii: "/"), let pairs = MT940Details.slashPairs(joined), !pairs.isEmpty {
            self.init(slash: pairs)
        } else {
            self.init()
            name = lines.map { StatementBytes.trimmed($0) }.filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    private init(german bytes: [UInt8]) {
        var subfields: [Int: [UInt8]] = [:]
        var code: Int?
        var index = 3
        var value: [UInt8] = []
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "?"), index + 2 < bytes.count, let next = StatementBytes.number(bytes[index + 1...index + 2]) {
                if let code { subfields[code, default: []] += value }
                code = next
                value = []
                index += 3
                continue
            }
            value.append(bytes[index])
            index += 1
        }
        if let code { subfields[code, default: []] += value }
        func text(_ codes: some Sequence<Int>) -> String {
            // A bank wraps a text over subfields anywhere, so they join as they are.
            StatementBytes.trimmed(codes.compactMap { subfields[$0] }.joined())
        }
        postingText = text([0])
        name = text([32, 33])
        remittance = MT940Details.sepaPurpose(text(Array(20...29) + Array(60...63)))
        counterparty = StatementText.accountNumber(text([31]))
    }

    private init(slash pairs: [(key: String, value: String)]) {
        func value(_ key: String) -> String? { pairs.first { $0.key == key }?.value }
        name = value("NAME") ?? ""
        counterparty = value("IBAN").flatMap(StatementText.accountNumber)
        if let party = value("CNTP") {
            // account/BIC/name/city
            let parts = party.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
            if let account = parts.first, counterparty == nil { counterparty = StatementText.accountNumber(account) }
            if parts.count > 2, name.isEmpty { name = parts[2] }
        }
        var remittance = value("REMI") ?? ""
        // Rabobank: `/REMI/USTD//text/`; structured: `/REMI/STRD/CUR/reference/`.
        for prefix in ["USTD//", "USTD/", "STRD/CUR/", "STRD/ISO/", "STRD/"] where remittance.hasPrefix(prefix) {
            remittance = String(remittance.dropFirst(prefix.count))
            break
        }
        self.remittance = remittance.trimmingScalars("/").trimmingSpaces
        postingText = value("TRTP") ?? ""
    }

    /// The keys of the slash style; any other `/word/` is part of a value.
    private static let slashKeys: Set<String> = [
        "TRCD", "TRTP", "BENM", "ORDP", "NAME", "IBAN", "BIC", "REMI", "EREF", "MARF", "CSID", "CNTP", "ADDR", "ISDT",
        "PREF", "RTRN", "PURP", "ULTC", "ULTD", "ULTB", "SVCL", "BUSP", "FX", "EXCH", "CHGS",
    ]

    /// `/KEY/value/KEY/value…`, or `nil` when the text does not start with a known key.
    private static func slashPairs(_ bytes: [UInt8]) -> [(key: String, value: String)]? {
        // The positions of `/KEY/` where KEY is known.
        var marks: [(key: String, start: Int, end: Int)] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/") {
                var end = index + 1
                while end < bytes.count, end - index <= 5, StatementBytes.isUpper(bytes[end]) { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: "/"), end > index + 1 {
                    let key = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                    if slashKeys.contains(key) {
                        marks.append((key, index, end + 1))
                        index = end
                        continue
                    }
                }
            }
            index += 1
        }
        guard let first = marks.first, first.start == 0 else { return nil }
        return marks.indices.map { position in
            let stop = position + 1 < marks.count ? marks[position + 1].start : bytes.count
            let start = min(marks[position].end, stop)
            let raw = String(decoding: bytes[start..<stop], as: UTF8.self)
            return (marks[position].key, raw.trimmingSpaces)
        }
    }

    /// A German SEPA remittance tags its parts (`EREF+`, `SVWZ+`…): the purpose `SVWZ+` is
    /// what a person wrote; without tags the whole text is.
    static func sepaPurpose(_ text: String) -> String {
        guard let range = text.range(of: "SVWZ+") else { return text }
        var purpose = text[range.upperBound...]
        let tags = ["ABWA+", "ABWE+", "EREF+", "KREF+", "MREF+", "CRED+", "DEBT+", "COAM+", "OAMT+", "IBAN+", "BIC+"]
        for tag in tags {
            if let end = purpose.range(of: tag) { purpose = purpose[..<end.lowerBound] }
        }
        return String(purpose).trimmingSpaces
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        trimmingScalars(" \t\r")
    }

    func trimmingScalars(_ characters: String) -> String {
        let set = Set(characters.unicodeScalars)
        let scalars = Array(unicodeScalars)
        guard let first = scalars.firstIndex(where: { !set.contains($0) }), let last = scalars.lastIndex(where: { !set.contains($0) }) else {
            return ""
        }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
