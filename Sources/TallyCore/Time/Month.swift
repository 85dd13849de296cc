import Foundation

/// A calendar month, `YYYY-MM`: the unit of a monthly budget and of a report.
public struct Month: Hashable, Comparable, Sendable, Codable {
    public let year: Int
    public let month: Int

    public init(year: Int, month: Int) throws(TallyError) {
        guard (1...9999).contains(year), (1...12).contains(month) else {
            throw .invalidMonth("\(Day.pad(year, 4))-\(Day.pad(month, 2))")
        }
        self.year = year
        self.month = month
    }

    init(validYear year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// Parses `YYYY-MM` strictly.
    public init(parsing text: String) throws(TallyError) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"),
            let year = Day.number(bytes[0..<4]), let month = Day.number(bytes[5..<7])
        else { throw .invalidMonth(text) }
        do {
            try self.init(year: year, month: month)
        } catch {
            throw .invalidMonth(text)
        }
    }

    /// The month `now` falls in, in `timeZone`.
    public static func current(now: Date, in timeZone: TimeZone) -> Month {
        Day.today(now: now, in: timeZone).monthValue
    }

    public var firstDay: Day { Day(unchecked: year, month, 1) }
    public var lastDay: Day { Day(unchecked: year, month, numberOfDays) }
    public var numberOfDays: Int { Day.daysIn(year: year, month: month) }
    public var days: DayInterval { DayInterval(first: firstDay, last: lastDay) }

    /// The month `count` months later (or earlier, when negative), clamped to years 1...9999.
    public func adding(months count: Int) -> Month {
        let index = min(max(year * 12 + (month - 1) + count, 12), 9999 * 12 + 11)
        return Month(validYear: index / 12, month: index % 12 + 1)
    }

    public var isoString: String { "\(Day.pad(year, 4))-\(Day.pad(month, 2))" }

    public static func < (lhs: Month, rhs: Month) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }
}

extension Month: CustomStringConvertible {
    public var description: String { isoString }
}

extension Day {
    init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }
}
