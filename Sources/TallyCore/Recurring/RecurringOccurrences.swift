/// Occurrence arithmetic: on which days a rule comes due. Integer civil-date arithmetic like the
/// date phrases (`Day.ordinal`), no Foundation `Calendar`: month ends, leap days and year ends
/// fall out of `Day.daysIn` and the ordinals.
extension RecurringRule {
    /// The days the rule is scheduled on within `first...last` (and its own `start...until`),
    /// skipped ones included, in order.
    public func scheduledDays(from first: Day, through last: Day) -> [Day] {
        let lower = max(first, start)
        let upper = until.map { min(last, $0) } ?? last
        guard lower <= upper else { return [] }
        switch every {
        case .day: return everyFewDays(anchor: start.ordinal, step: interval, lower, upper)
        case .week:
            let anchor = start.ordinal + (effectiveDay - start.weekday + 7) % 7
            return everyFewDays(anchor: anchor, step: 7 * interval, lower, upper)
        case .month: return everyFewMonths(step: interval, day: effectiveDay, lower, upper)
        case .year: return everyFewMonths(step: 12 * interval, day: start.day, lower, upper)
        }
    }

    /// The days the rule comes due within `first...last`: scheduled and not skipped.
    public func occurrences(from first: Day, through last: Day) -> [Day] {
        let scheduled = scheduledDays(from: first, through: last)
        guard !skips.isEmpty else { return scheduled }
        let skipped = Set(skips)
        return scheduled.filter { !skipped.contains($0) }
    }

    /// Whether the rule is scheduled on `day` (skipped or not).
    public func isScheduled(on day: Day) -> Bool {
        scheduledDays(from: day, through: day) == [day]
    }

    /// The first occurrence on or after `day` that is not skipped and not in `paid`, if any
    /// before `until` and the year 9999. Looks a year at a time so an open-ended rule stays cheap.
    public func firstDue(onOrAfter day: Day, excluding paid: Set<Day>) -> Day? {
        var cursor = max(day, start)
        while until.map({ cursor <= $0 }) ?? true {
            guard let chunkEnd = Day(ordinal: cursor.ordinal + 400) ?? Day(ordinal: Day.lastOrdinal) else { return nil }
            if let found = occurrences(from: cursor, through: chunkEnd).first(where: { !paid.contains($0) }) { return found }
            guard chunkEnd.ordinal < Day.lastOrdinal, let next = Day(ordinal: chunkEnd.ordinal + 1) else { return nil }
            cursor = next
        }
        return nil
    }

    /// Days `anchor + k × step` (k ≥ 0, as ordinals) within `lower...upper`.
    private func everyFewDays(anchor: Int, step: Int, _ lower: Day, _ upper: Day) -> [Day] {
        let offset = lower.ordinal - anchor
        // The first k whose day is not before `lower`: a ceiling division of a non-negative offset.
        var ordinal = anchor + (offset > 0 ? (offset + step - 1) / step * step : 0)
        var days: [Day] = []
        while ordinal <= upper.ordinal, let day = Day(ordinal: ordinal) {
            if day >= lower { days.append(day) }
            ordinal += step
        }
        return days
    }

    /// In every `step`-th month from the start's, the `day` of the month (the month's last day
    /// when it has fewer), within `lower...upper`.
    private func everyFewMonths(step: Int, day: Int, _ lower: Day, _ upper: Day) -> [Day] {
        let startIndex = start.year * 12 + start.month - 1
        let lowerIndex = lower.year * 12 + lower.month - 1
        let upperIndex = upper.year * 12 + upper.month - 1
        var index = startIndex + max(0, (lowerIndex - startIndex) / step) * step
        var days: [Day] = []
        while index <= upperIndex {
            let year = index / 12
            let month = index % 12 + 1
            let candidate = Day(unchecked: year, month, min(day, Day.daysIn(year: year, month: month)))
            if candidate >= lower, candidate <= upper { days.append(candidate) }
            index += step
        }
        return days
    }
}
