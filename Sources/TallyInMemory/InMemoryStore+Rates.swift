import Foundation
import TallyCore

// MARK: - The rate table

extension InMemoryStore {
    public func rates(_ query: RateQuery) throws(TallyError) -> [DayRate] {
        try transaction(recording: false) { state in
            let pairs = state.rates.values.map { days in
                days.values.filter { rate in
                    (query.currency.map { rate.from == $0 || rate.to == $0 } ?? true) && (query.days?.contains(rate.day) ?? true)
                        && (query.latestOnOrBefore.map { rate.day <= $0 } ?? true)
                }
            }
            let rows = query.latestOnOrBefore == nil ? pairs.flatMap { $0 } : pairs.compactMap { $0.max { $0.day < $1.day } }
            return rows.sorted { ($0.day, $0.from.code, $0.to.code) < ($1.day, $1.from.code, $1.to.code) }
        }
    }

    public func saveRates(_ produce: (_ save: ([DayRate]) throws(TallyError) -> Void) throws(TallyError) -> Void) throws(TallyError) {
        try transaction(recording: false) { (state: inout State) throws(TallyError) in
            var table = state.rates
            try produce { (rates: [DayRate]) throws(TallyError) in
                for rate in rates { table["\(rate.from.code)\(rate.to.code)", default: [:]][rate.day] = rate }
            }
            state.rates = table
        }
    }
}
