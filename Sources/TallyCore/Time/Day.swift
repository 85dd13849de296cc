import Foundation

/// A calendar day with no time and no time zone: the date of an expense.
///
/// Expenses belong to the day the user lived them, so storing a civil date keeps an
/// expense in the same month whatever the time zone of the machine that reads it.
public struct Day: Hashable, Comparable, Sendable, Codable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a day, checking that it exists in the Gregorian calendar.
    public init(year: Int, month: Int, day: Int) throws(TallyError) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Day.daysIn(year: year, month: month)).contains(day)
        else { throw .invalidDate(Day.format(year: year, month: month, day: day)) }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` strictly: four, two and two digits.
    public init(parsing text: String) throws(TallyError) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = Day.number(bytes[0..<4]), let month = Day.number(bytes[5..<7]),
            let day = Day.number(bytes[8..<10])
        else { throw .invalidDate(text) }
        do {
            try self.init(year: year, month: month, day: day)
        } catch {
            throw .invalidDate(text)
        }
    }

    /// The day on which `date` falls in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        year = parts.year ?? 1970
        month = parts.month ?? 1
        day = parts.day ?? 1
    }

    /// The day `now` falls on in `timeZone`.
    public static func today(now: Date, in timeZone: TimeZone) -> Day {
        Day(now, in: timeZone)
    }

    /// Today in the machine's local time zone (`TZ`, else `/etc/localtime`), from the C library:
    /// setting up Foundation's `TimeZone.current` and `Calendar` is costly for a fresh `tally add`.
    public static func today() -> Day {
        var now = time(nil)
        var parts = tm()
        // `localtime_r` reads `TZ` only once per process; `tzset` makes a changed `TZ` count.
        tzset()
        guard localtime_r(&now, &parts) != nil,
            let day = try? Day(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        else { return Day(Date(), in: .current) }
        return day
    }

    public var monthValue: Month {
        // A valid day always has a valid month.
        Month(validYear: year, month: month)
    }

    /// `YYYY-MM-DD`, which also sorts correctly as text.
    public var isoString: String { Day.format(year: year, month: month, day: day) }

    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    static func format(year: Int, month: Int, day: Int) -> String {
        "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Day: CustomStringConvertible {
    public var description: String { isoString }
}

/// An inclusive range of days, such as a month or a budget's period.
public struct DayInterval: Hashable, Sendable, Codable {
    public let first: Day
    public let last: Day

    public init(first: Day, last: Day) {
        self.first = first
        self.last = last
    }

    public func contains(_ day: Day) -> Bool { first <= day && day <= last }

    /// The smallest interval holding this one and every one of `others`: the days one read must
    /// cover for a period and every budget's view of it.
    public func spanning(_ others: some Sequence<DayInterval>) -> DayInterval {
        var span = self
        for interval in others { span = DayInterval(first: Swift.min(span.first, interval.first), last: Swift.max(span.last, interval.last)) }
        return span
    }
}

extension DayInterval: Sequence {
    /// The interval's days in order.
    public struct Iterator: IteratorProtocol {
        private var upcoming: Day?
        private let last: Day

        init(_ interval: DayInterval) {
            upcoming = interval.first <= interval.last ? interval.first : nil
            last = interval.last
        }

        public mutating func next() -> Day? {
            guard let day = upcoming else { return nil }
            upcoming = day < last ? day.following : nil
            return day
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }
}

extension Day {
    /// The next day; only called on a day before another valid one, so it is valid too.
    var following: Day {
        if day < Day.daysIn(year: year, month: month) { return Day(unchecked: year, month, day + 1) }
        if month < 12 { return Day(unchecked: year, month + 1, 1) }
        return Day(unchecked: year + 1, 1, 1)
    }
}
