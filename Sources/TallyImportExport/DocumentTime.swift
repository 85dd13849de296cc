import Foundation

/// Instants in a document, such as a budget's creation: UTC to the millisecond, as the stores
/// keep them, written `2026-01-31T09:30:00.123Z`. Integer arithmetic only, so that an instant
/// read back is the very `Date` the stores hand out.
enum DocumentTime {
    private static let millisecondsPerDay: Int64 = 86_400_000

    /// The instant to the nearest millisecond, in UTC. A clock can be injected, so an instant
    /// outside the years 1 to 9999 is written as the nearest one within them, and one that is
    /// not a number as 1970's first.
    static func string(_ date: Date) -> String {
        let first = days(fromCivil: 1, 1, 1) * millisecondsPerDay
        let last = days(fromCivil: 10_000, 1, 1) * millisecondsPerDay - 1
        let exact = (date.timeIntervalSince1970 * 1000).rounded()
        let milliseconds = exact.isFinite ? Int64(min(max(exact, Double(first)), Double(last))) : 0
        let days = floorDivision(milliseconds, millisecondsPerDay)
        var rest = milliseconds - days * millisecondsPerDay
        let (year, month, day) = civil(fromDays: days)
        let hour = rest / 3_600_000
        rest %= 3_600_000
        let minute = rest / 60_000
        rest %= 60_000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(rest / 1000, 2)).\(pad(rest % 1000, 3))Z"
    }

    /// Parses exactly what ``string(_:)`` writes; `nil` for anything else.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
            bytes[23] == UInt8(ascii: "Z"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]), let second = number(bytes[17..<19]),
            let millisecond = number(bytes[20..<23]),
            year >= 1, (1...12).contains(month), (1...daysIn(year: year, month: month)).contains(day), hour < 24, minute < 60,
            second < 60
        else { return nil }
        let days = self.days(fromCivil: year, month, day)
        let milliseconds = days * millisecondsPerDay + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Days since 1970-01-01 of a Gregorian date (H. Hinnant's `days_from_civil`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivision(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The Gregorian date `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivision(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
