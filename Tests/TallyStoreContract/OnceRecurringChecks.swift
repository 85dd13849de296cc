import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// Recurring bills of a once budget: what every store must do alike.
extension StoreContract {
    /// The weekly hotel of a trip budget for October: only the occurrences within October are
    /// posted (``Budget/checkAccepts(_:)``, as `add` refuses the others), the rest come back as
    /// outside the budget, stay unpaid, are not listed as upcoming, and posting again adds nothing.
    static func postingIntoAOnceBudgetFollowsItsRange(_ stores: Stores) throws {
        let store = try stores.make()
        let october = DayInterval(first: try day("2026-10-01"), last: try day("2026-10-31"))
        let trip = try store.addBudget(Budget(name: "Trip", limit: money("500"), period: .once, range: october))
        let hotel = try store.addRecurringRule(
            RecurringRule(name: "Hotel", budgetID: trip.id ?? 0, amount: money("50"), every: .week, start: day("2026-09-20")))

        let dry = try store.postRecurring(through: day("2026-11-20"), dryRun: true)
        let posts = try store.postRecurring(through: day("2026-11-20"), dryRun: false)
        func outcomes(_ posts: [RecurringPost]) -> [String] {
            posts.map { post in
                switch post.outcome {
                case .posted: "\(post.occurrence.date) posted"
                case .matched: "\(post.occurrence.date) matched"
                case .outsideBudget(let range): "\(post.occurrence.date) outside \(range.first)…\(range.last)"
                }
            }
        }
        let expected = [
            "2026-09-20 outside 2026-10-01…2026-10-31", "2026-09-27 outside 2026-10-01…2026-10-31", "2026-10-04 posted",
            "2026-10-11 posted", "2026-10-18 posted", "2026-10-25 posted", "2026-11-01 outside 2026-10-01…2026-10-31",
            "2026-11-08 outside 2026-10-01…2026-10-31", "2026-11-15 outside 2026-10-01…2026-10-31",
        ]
        #expect(outcomes(dry) == expected)
        #expect(outcomes(posts) == expected)
        let saved = try store.expenses(ExpenseQuery(budgetID: trip.id))
        #expect(saved.map(\.date.isoString) == ["2026-10-04", "2026-10-11", "2026-10-18", "2026-10-25"])
        #expect(saved.allSatisfy { trip.accepts($0.date) })
        #expect(try store.recurringPayments().map(\.date.isoString) == saved.map(\.date.isoString))
        #expect(try store.budgetStatuses(for: month("2026-10")).first?.spent == money("200"))

        // Again: the same occurrences stay outside, and nothing more is posted.
        let again = try store.postRecurring(through: day("2026-11-20"), dryRun: false)
        #expect(again.allSatisfy { if case .outsideBudget = $0.outcome { true } else { false } })
        #expect(again.count == 5)
        #expect(try store.expenses(ExpenseQuery()).count == 4)
        let upcoming = RecurringSchedule.upcoming(
            try store.recurringRules(), payments: try store.recurringPayments(), today: try day("2026-11-20"), days: 30,
            budgets: try store.budgets())
        #expect(upcoming.isEmpty)

        // Undone, the posts go and the occurrences are due again; redone, they are back.
        let undone = try store.undo(nil, dryRun: false)
        #expect(try store.expenses(ExpenseQuery()).isEmpty)
        #expect(try store.recurringPayments().isEmpty)
        _ = try store.undo(undone.undo.id, dryRun: false)
        #expect(try store.expenses(ExpenseQuery(budgetID: trip.id)) == saved)
        #expect(try store.recurringPayments().count == 4)
        #expect(hotel.id != nil)
    }
}
