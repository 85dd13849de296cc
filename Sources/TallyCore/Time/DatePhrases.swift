/// Dates and months as people say them on a command line: `yesterday`, `-3d`, `last fri`,
/// `nov 20`, `last`, `-2`, `nov`, as well as ISO `2026-11-20` and `2026-11`.
///
/// Everything is integer arithmetic on civil dates: setting up Foundation's `Calendar` is costly
/// for a fresh `tally add` (see ``Day/today()``), and a date phrase is on its fast path.
extension Day {
    /// The accepted date forms, as error messages list them.
    public static let phraseForms =
        "today, yesterday, tomorrow, -3d, 3d ago, a weekday (mon, last fri), 20, 11-20, nov 20, 20 nov or YYYY-MM-DD"

    /// Reads a date phrase relative to `today`, ignoring case.
    ///
    /// - `today`, `yesterday`, `tomorrow`; `-3d`, `3d ago`, `3 days ago`.
    /// - A weekday (`mon`, `monday`, `last fri`): the most recent such day before today, never today.
    /// - `20`: the most recent 20th, today included (months without it are skipped).
    /// - `11-20`, `nov 20`, `20 nov`: the most recent such day, today included; the day must
    ///   exist in the year it falls in (`feb 29` in 2027 is an error).
    /// - `2026-11-20`.
    public init(phrase: String, today: Day) throws(TallyError) {
        let words = DatePhrase.words(phrase)
        if words.count == 1, DatePhrase.isISODay(words[0]) {
            do {
                try self.init(parsing: String(decoding: words[0], as: UTF8.self))
            } catch {
                throw .invalidDate(phrase)
            }
            return
        }
        let failure = { (problem: TallyError.PhraseProblem) in TallyError.invalidPhrase(.date, phrase, problem) }
        guard let resolved = DatePhrase.resolve(words, today: today) else { throw failure(.unknownForm) }
        switch resolved {
        case .ordinal(let ordinal):
            guard let day = Day(ordinal: ordinal) else { throw failure(.outOfRange) }
            self = day
        case .day(let year, let month, let day):
            guard (1...9999).contains(year) else { throw failure(.outOfRange) }
            guard (1...Day.daysIn(year: year, month: month)).contains(day) else { throw failure(.noSuchDay(year: year)) }
            self.init(unchecked: year, month, day)
        case .noSuchDay:
            throw failure(.noSuchDay(year: nil))
        }
    }

    /// Days since 1970-01-01 (negative before), from the civil date (H. Hinnant's `days_from_civil`).
    public var ordinal: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `ordinal` days after 1970-01-01; `nil` outside the years 1 to 9999.
    public init?(ordinal: Int) {
        guard (Day.firstOrdinal...Day.lastOrdinal).contains(ordinal) else { return nil }
        let shifted = ordinal + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        self.init(unchecked: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 for Monday to 6 for Sunday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday.
        ((ordinal + 3) % 7 + 7) % 7
    }

    static let firstOrdinal = Day(unchecked: 1, 1, 1).ordinal
    static let lastOrdinal = Day(unchecked: 9999, 12, 31).ordinal
}

extension Month {
    /// The accepted month forms, as error messages list them.
    public static let phraseForms = "this, last, -2, a month name (nov) or YYYY-MM"

    /// Reads a month phrase relative to `current`, ignoring case: `this` (or `this month`),
    /// `last` (`last month`), `-2` (two months before), a month name such as `nov` or
    /// `november` (the most recent November, this one included), or `2026-11`.
    public init(phrase: String, current: Month) throws(TallyError) {
        let words = DatePhrase.words(phrase)
        if words.count == 1, DatePhrase.isISOMonth(words[0]) {
            do {
                try self.init(parsing: String(decoding: words[0], as: UTF8.self))
            } catch {
                throw .invalidMonth(phrase)
            }
            return
        }
        let back: Int
        switch words.count {
        case 1 where words[0] == Array("this".utf8):
            back = 0
        case 1 where words[0] == Array("last".utf8):
            back = 1
        case 2 where words[1] == Array("month".utf8) && words[0] == Array("this".utf8):
            back = 0
        case 2 where words[1] == Array("month".utf8) && words[0] == Array("last".utf8):
            back = 1
        case 1 where words[0].first == UInt8(ascii: "-"):
            guard let count = DatePhrase.count(words[0].dropFirst()) else {
                throw .invalidPhrase(.month, phrase, .unknownForm)
            }
            back = count
        case 1:
            guard let named = DatePhrase.monthNumber(words[0]) else { throw .invalidPhrase(.month, phrase, .unknownForm) }
            back = (current.month - named + 12) % 12
        default:
            throw .invalidPhrase(.month, phrase, .unknownForm)
        }
        let index = current.year * 12 + current.month - 1 - back
        guard index >= 12 else { throw .invalidPhrase(.month, phrase, .outOfRange) }
        self.init(validYear: index / 12, month: index % 12 + 1)
    }
}

/// The pieces the two phrase readers share.
enum DatePhrase {
    enum Resolved {
        /// A day given as days since 1970-01-01, not yet checked against years 1 to 9999.
        case ordinal(Int)
        /// A day given by its parts, not yet checked to exist.
        case day(year: Int, month: Int, day: Int)
        /// A day of the month that no month has, such as `32` or `feb 30`.
        case noSuchDay
    }

    /// The phrase in lowercase ASCII, split at spaces; other bytes are kept as they are, so
    /// that they match no form.
    static func words(_ phrase: String) -> [[UInt8]] {
        var words: [[UInt8]] = []
        var word: [UInt8] = []
        for byte in phrase.utf8 {
            if byte == UInt8(ascii: " ") {
                if !word.isEmpty { words.append(word) }
                word = []
            } else {
                word.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    static func resolve(_ words: [[UInt8]], today: Day) -> Resolved? {
        switch words.count {
        case 1:
            let word = words[0]
            if word == Array("today".utf8) { return .ordinal(today.ordinal) }
            if word == Array("yesterday".utf8) { return .ordinal(today.ordinal - 1) }
            if word == Array("tomorrow".utf8) { return .ordinal(today.ordinal + 1) }
            if word.first == UInt8(ascii: "-"), word.last == UInt8(ascii: "d"),
                let count = count(word.dropFirst().dropLast())
            {
                return .ordinal(today.ordinal - count)
            }
            if let weekday = weekdayNumber(word) { return .ordinal(previous(weekday, before: today)) }
            if let day = number(word[...], maximumDigits: 2) { return dayOfMonth(day, today: today) }
            if let dash = word.firstIndex(of: UInt8(ascii: "-")), dash > 0, dash <= 2, word.count - dash - 1 <= 2,
                let month = number(word[..<dash], maximumDigits: 2), let day = number(word[(dash + 1)...], maximumDigits: 2)
            {
                guard (1...12).contains(month) else { return nil }
                return monthDay(month: month, day: day, today: today)
            }
            return nil
        case 2:
            if words[0] == Array("last".utf8), let weekday = weekdayNumber(words[1]) {
                return .ordinal(previous(weekday, before: today))
            }
            if words[1] == Array("ago".utf8), words[0].last == UInt8(ascii: "d"),
                let count = count(words[0].dropLast())
            {
                return .ordinal(today.ordinal - count)
            }
            if let month = monthNumber(words[0]), let day = number(words[1][...], maximumDigits: 2) {
                return monthDay(month: month, day: day, today: today)
            }
            if let day = number(words[0][...], maximumDigits: 2), let month = monthNumber(words[1]) {
                return monthDay(month: month, day: day, today: today)
            }
            return nil
        case 3:
            guard words[2] == Array("ago".utf8), let count = count(words[0][...]),
                ["d", "day", "days"].contains(where: { words[1] == Array($0.utf8) })
            else { return nil }
            return .ordinal(today.ordinal - count)
        default:
            return nil
        }
    }

    /// The most recent `weekday` strictly before `today`: one to seven days back.
    private static func previous(_ weekday: Int, before today: Day) -> Int {
        let back = (today.weekday - weekday + 6) % 7 + 1
        return today.ordinal - back
    }

    /// The most recent day `day` of a month, today included; months without it are skipped.
    private static func dayOfMonth(_ day: Int, today: Day) -> Resolved {
        guard (1...31).contains(day) else { return .noSuchDay }
        var month = today.monthValue
        if day > today.day {
            month = Month(validYear: today.year, month: today.month).previousUnclamped
        }
        // Two months in a row always include one with 31 days.
        for _ in 0..<3 {
            if month.year < 1 { return .day(year: month.year, month: month.month, day: day) }
            if day <= Day.daysIn(year: month.year, month: month.month) {
                return .day(year: month.year, month: month.month, day: day)
            }
            month = month.previousUnclamped
        }
        return .noSuchDay
    }

    /// This year's `month`-`day` if it is not after today, else last year's.
    private static func monthDay(month: Int, day: Int, today: Day) -> Resolved {
        guard (1...31).contains(day), day <= Day.daysIn(year: 2000, month: month) else { return .noSuchDay }
        let year = (month, day) <= (today.month, today.day) ? today.year : today.year - 1
        return .day(year: year, month: month, day: day)
    }

    /// A count of days or months: digits, any number of them; beyond what any date could use,
    /// it stops growing (and lands outside the years 1 to 9999).
    static func count(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 100_000_000)
        }
        return value
    }

    static func number(_ digits: ArraySlice<UInt8>, maximumDigits: Int) -> Int? {
        guard !digits.isEmpty, digits.count <= maximumDigits else { return nil }
        return Day.number(digits)
    }

    static func isISODay(_ word: [UInt8]) -> Bool {
        word.count == 10 && word[4] == UInt8(ascii: "-") && word[7] == UInt8(ascii: "-")
            && Day.number(word[0..<4]) != nil && Day.number(word[5..<7]) != nil && Day.number(word[8..<10]) != nil
    }

    static func isISOMonth(_ word: [UInt8]) -> Bool {
        word.count == 7 && word[4] == UInt8(ascii: "-") && Day.number(word[0..<4]) != nil && Day.number(word[5..<7]) != nil
    }

    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]
    private static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// 1 to 12 for a month's English name or its first three letters.
    static func monthNumber(_ word: [UInt8]) -> Int? {
        named(word, in: monthNames).map { $0 + 1 }
    }

    /// 0 (Monday) to 6 for a weekday's English name or its first three letters.
    static func weekdayNumber(_ word: [UInt8]) -> Int? {
        named(word, in: weekdayNames)
    }

    private static func named(_ word: [UInt8], in names: [String]) -> Int? {
        names.firstIndex { name in
            let full = Array(name.utf8)
            return word == full || word == Array(full.prefix(3))
        }
    }
}

extension Month {
    /// The month before, possibly in year 0 (which callers check).
    fileprivate var previousUnclamped: Month {
        month == 1 ? Month(validYear: year - 1, month: 12) : Month(validYear: year, month: month - 1)
    }
}

/// The period a command is asked about: the current one, a month as named, or a phrase such as
/// `last`, `-2` or `nov` that counts from the current period, which depends on the ledger's
/// month start and so is known only once the ledger is open.
public enum PeriodChoice: Hashable, Sendable {
    case current
    case month(Month)
    case phrase(String)

    /// `nil` is the current period.
    public init(_ month: Month?) {
        self = month.map(PeriodChoice.month) ?? .current
    }

    /// A month as the user typed it. Its form is checked now, against the calendar month, so a
    /// bad one fails before anything is opened; an ISO month needs no current period at all.
    public init(phrase: String, today: Day) throws(TallyError) {
        let month = try Month(phrase: phrase, current: today.monthValue)
        self = DatePhrase.words(phrase).count == 1 && DatePhrase.isISOMonth(DatePhrase.words(phrase)[0]) ? .month(month) : .phrase(phrase)
    }

    /// The period chosen, under `calendar`, on `today`.
    public func resolved(in calendar: PeriodCalendar, today: Day) throws(TallyError) -> Month {
        switch self {
        case .current: calendar.period(containing: today)
        case .month(let month): month
        case .phrase(let text): try Month(phrase: text, current: calendar.period(containing: today))
        }
    }
}
