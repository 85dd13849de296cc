/// The rate rows a change wrote (`rates import`, `rates set`), so that `undo` puts the table back:
/// `before` holds the rows it replaced as they were (a row it added has none), `after` every row
/// it saved. The rate table is outside the rows every recorded write reads and diffs (it may hold
/// the ECB's whole history), so only the writes that touch it record it, and only what they touched.
public struct RateImages: Hashable, Sendable {
    public var before: [DayRate]
    public var after: [DayRate]

    public init(before: [DayRate] = [], after: [DayRate] = []) {
        self.before = before
        self.after = after
    }

    public var isEmpty: Bool { before.isEmpty && after.isEmpty }

    /// The change that puts the table back.
    var inverse: RateImages { RateImages(before: after, after: before) }

    /// Applying the change forward: the rows to delete (every key it touched), then the rows to
    /// save. `before`'s keys are among `after`'s for a recorded change, and the other way round
    /// for its inverse, so this one rule serves undo and redo.
    public var removals: [DayRate] { before + after }

    /// The rows a change touched, for the overlap test: undoing a rate import waits while a later
    /// change set another rate of the same day and pair.
    var keys: Set<RowKey> {
        Set((before + after).map(\.key))
    }

    /// Records `saved` replacing `existing` (the rows of the same keys before the write, nil
    /// where there was none): a row saved unchanged is left out.
    public mutating func record(saving saved: DayRate, over existing: DayRate?) {
        guard existing != saved else { return }
        if let existing { before.append(existing) }
        after.append(saved)
    }
}

extension DayRate {
    /// The row's key in the rate table: a pair on a day.
    public var key: RowKey { .rate(from: from.code, to: to.code, day: day) }
}

// A rate import's images may hold a quarter of a million rows: each list is packed into one
// string of fields (the day, the two codes) and the rate's decimal text.
extension RateImages: Codable {
    private enum CodingKeys: String, CodingKey { case before, beforeCount, after, afterCount }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func rates(_ key: CodingKeys, _ count: CodingKeys) throws -> [DayRate] {
            let n = try container.decode(Int.self, forKey: count)
            guard n > 0 else { return [] }
            let texts = try PackedColumn.texts(try container.decode(String.self, forKey: key), count: n, key)
            return try texts.map { text in
                let fields = text.split(separator: " ", omittingEmptySubsequences: false)
                guard fields.count == 4, let day = try? Day(parsing: String(fields[0])),
                    let rate = try? ExchangeRate(parsing: String(fields[3]))
                else {
                    throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [key], debugDescription: "a rate image does not read"))
                }
                return DayRate(day: day, from: Currency(storedCode: String(fields[1])), to: Currency(storedCode: String(fields[2])), rate: rate)
            }
        }
        before = try rates(.before, .beforeCount)
        after = try rates(.after, .afterCount)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func pack(_ rates: [DayRate]) -> String {
            PackedColumn.pack(rates.map { "\($0.day.isoString) \($0.from.code) \($0.to.code) \($0.rate.plainString)" })
        }
        try container.encode(pack(before), forKey: .before)
        try container.encode(before.count, forKey: .beforeCount)
        try container.encode(pack(after), forKey: .after)
        try container.encode(after.count, forKey: .afterCount)
    }

    /// What `encode(to:)` makes through JSONEncoder (the separator escaped as `\u001f`), written
    /// straight to bytes (`ChangeContentCoding.encode`): no string a row.
    func writeJSON(into json: inout JSONText) {
        func write(_ rates: [DayRate]) {
            json.byte(UInt8(ascii: "\""))
            for (index, rate) in rates.enumerated() {
                if index > 0 { json.raw("\\u001f") }
                json.digits(Int64(rate.day.year), width: 4)
                json.byte(UInt8(ascii: "-"))
                json.digits(Int64(rate.day.month), width: 2)
                json.byte(UInt8(ascii: "-"))
                json.digits(Int64(rate.day.day), width: 2)
                json.byte(UInt8(ascii: " "))
                json.inside(rate.from.code)
                json.byte(UInt8(ascii: " "))
                json.inside(rate.to.code)
                json.byte(UInt8(ascii: " "))
                json.inside(rate.rate.plainString)
            }
            json.byte(UInt8(ascii: "\""))
        }
        json.raw("{\"before\":")
        write(before)
        json.raw(",\"beforeCount\":")
        json.number(before.count)
        json.raw(",\"after\":")
        write(after)
        json.raw(",\"afterCount\":")
        json.number(after.count)
        json.raw("}")
    }
}
