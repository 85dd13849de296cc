import Foundation
import TallyCore

/// `upcoming --ics`: the occurrences as an iCalendar file (RFC 5545) a calendar app can subscribe
/// to. One all-day VEVENT per occurrence; its UID names the rule and the day, so the same bill
/// keeps its event from one export to the next.
public enum ICalendarRenderer {
    /// The whole file: CRLF line endings, lines folded at 75 octets, text values escaped.
    /// `stamp` is when the file was made (every VEVENT's required DTSTAMP).
    public static func render(
        _ occurrences: [RecurringOccurrence], budgetNames: [Int64: String], stamp: Date
    ) throws(TallyError) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tally//Tally recurring bills//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "X-WR-CALNAME:Tally bills",
        ]
        let dtstamp = timestamp(stamp)
        for occurrence in occurrences {
            let ruleID = occurrence.rule.id ?? 0
            let budget = budgetNames[occurrence.rule.budgetID] ?? ""
            let total = try occurrence.total.groupedString
            let following = Day(ordinal: occurrence.date.ordinal + 1) ?? occurrence.date
            lines += [
                "BEGIN:VEVENT",
                "UID:tally-rule-\(ruleID)-\(compact(occurrence.date))@tally",
                "DTSTAMP:\(dtstamp)",
                "DTSTART;VALUE=DATE:\(compact(occurrence.date))",
                "DTEND;VALUE=DATE:\(compact(following))",
                "SUMMARY:" + escaped("\(occurrence.rule.name): \(total)"),
                "DESCRIPTION:" + escaped("\(occurrence.rule.name), \(total) from budget \(budget) (recurring rule \(ruleID))"
                    + (occurrence.overdue ? "; overdue" : "")),
                "CATEGORIES:" + escaped(budget),
                "TRANSP:TRANSPARENT",
                "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.map(folded).joined(separator: "\r\n") + "\r\n"
    }

    /// A TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// A content line folded (§3.1): at most 75 octets a line, continuations starting with one
    /// space, never inside a UTF-8 sequence.
    static func folded(_ line: String) -> String {
        var pieces: [String] = []
        var current = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            // The first line holds 75 octets; a continuation 74 after its leading space.
            if octets + size > (pieces.isEmpty ? 75 : 74) {
                pieces.append(current)
                current = ""
                octets = 0
            }
            current.unicodeScalars.append(scalar)
            octets += size
        }
        pieces.append(current)
        return pieces.joined(separator: "\r\n ")
    }

    private static func compact(_ day: Day) -> String {
        day.isoString.replacingOccurrences(of: "-", with: "")
    }

    /// `20261125T035600Z`, in UTC.
    private static func timestamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let day = Day(ordinal: days).map(compact) ?? "19700101"
        let pad = { (value: Int) in value < 10 ? "0\(value)" : String(value) }
        return "\(day)T\(pad(rest / 3600))\(pad(rest / 60 % 60))\(pad(rest % 60))Z"
    }
}
