import Foundation
import TallyCore

// MARK: - The rate table

extension InMemoryStore {
    /// ``LedgerRows/rates(_:)`` of `state`.
    static func rates(_ query: RateQuery, in state: State) -> [DayRate] {
        let pairs = state.rates.values.map { days in
            days.values.filter { rate in
                (query.currency.map { rate.from == $0 || rate.to == $0 } ?? true) && (query.days?.contains(rate.day) ?? true)
                    && (query.latestOnOrBefore.map { rate.day <= $0 } ?? true)
            }
        }
        let rows = query.latestOnOrBefore == nil ? pairs.flatMap { $0 } : pairs.compactMap { $0.max { $0.day < $1.day } }
        return rows.sorted { ($0.day, $0.from.code, $0.to.code) < ($1.day, $1.from.code, $1.to.code) }
    }

    /// What changed in the rate table between two states, for the history.
    static func rateChanges(from old: [String: [Day: DayRate]], to new: [String: [Day: DayRate]]) -> RateImages {
        var images = RateImages()
        for pair in Set(old.keys).union(new.keys).sorted() where old[pair] != new[pair] {
            let before = old[pair] ?? [:], after = new[pair] ?? [:]
            for day in Set(before.keys).union(after.keys).sorted() where before[day] != after[day] {
                if let saved = after[day] {
                    images.record(saving: saved, over: before[day])
                } else if let removed = before[day] {
                    images.before.append(removed)
                }
            }
        }
        return images
    }

    /// A rate write: every row `images` touched goes, then its `after` rows are saved.
    static func apply(_ images: RateImages, to table: inout [String: [Day: DayRate]]) {
        for rate in images.removals { table["\(rate.from.code)\(rate.to.code)"]?[rate.day] = nil }
        for rate in images.after { table["\(rate.from.code)\(rate.to.code)", default: [:]][rate.day] = rate }
        table = table.filter { !$0.value.isEmpty }
    }
}
