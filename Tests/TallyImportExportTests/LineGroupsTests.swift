import Testing
import TallyCore
@testable import TallyImportExport

/// Tally's own CSV of a split: its consecutive rows with one id become one expense, keyed whole.
struct LineGroupsTests {
    static let header = "date,budget,name,amount,quantity,tags,by,account,to," + CSVLedgerColumns.names.joined(separator: ",") + ",kind\n"

    private func rows(_ body: String) throws(TallyError) -> [ImportedExpense] {
        let plan = try ImportPlanner.plan(.bytes(Array((Self.header + body).utf8), chunkSize: 7), format: .csv)
        var rows: [ImportedExpense] = []
        try ImportPlanner.forEachExpense(in: plan) { rows.append($0) }
        #expect(plan.summary.expenseCount == rows.count)
        return rows
    }

    static let file = """
        2026-03-09,Food,Bread,2.50,1,,,,,1,,,,,,,,,,expense
        2026-03-10,Food,Costco,40.00,3,bulk,,,,2,100.00,100,,,,,,,,expense
        2026-03-10,Home,Costco,40.00,3,bulk,,,,2,20.00,rest,Pans,kitchen;pots,,,,,,expense
        2026-03-10,Food,Costco,40.00,3,bulk,,,,3,60.00,50%,,,,,,,,expense
        2026-03-10,Home,Costco,40.00,3,bulk,,,,3,60.00,rest,,,,,,,,expense
        2026-03-11,Food,Milk,1.00,1,,,,,4,,,,,,,,,,expense

        """

    @Test func consecutiveRowsOfOneIdAreOneExpenseKeyedWhole() throws {
        let rows = try rows(Self.file)
        #expect(rows.map(\.expense.name) == ["Bread", "Costco", "Costco", "Milk"])
        #expect(rows.map(\.line) == [2, 3, 5, 7])
        #expect(rows[1].budgetName == "Food\u{1E}Home")
        #expect(rows[1].expense.lines.map(\.amount) == [Money(cents: 10_000), Money(cents: 2_000)])
        #expect(rows[1].expense.lines[1].name == "Pans" && rows[1].expense.lines[1].tags == ["kitchen", "pots"])
        #expect(rows[1].expense.id == 2 && rows[2].expense.id == 3)
        #expect(Set(rows.compactMap(\.rowKey)).count == 4, "two receipts alike but for their lines are two keys")
        // The same file gives the same keys; another budget on one line gives the split a new one.
        #expect(try self.rows(Self.file).map(\.rowKey) == rows.map(\.rowKey))
        let moved = try self.rows(Self.file.replacingOccurrences(of: "2026-03-10,Home,Costco,40.00,3,bulk,,,,3", with: "2026-03-10,Fun,Costco,40.00,3,bulk,,,,3"))
        #expect(moved[2].rowKey != rows[2].rowKey)
        #expect(moved[0].rowKey == rows[0].rowKey && moved[1].rowKey == rows[1].rowKey && moved[3].rowKey == rows[3].rowKey)
    }

    @Test func aRefundIsKeyedApartFromTheSameExpense() throws {
        let rows = try rows("""
            2026-03-09,Food,Bread,2.50,1,,,,,1,,,,,,,,,,expense
            2026-03-09,Food,Bread,2.50,1,,,,,2,,,,,1,,,,,refund

            """)
        #expect(rows.map(\.expense.isRefund) == [false, true] && rows[1].expense.refundOf == 1)
        #expect(rows[0].rowKey != rows[1].rowKey)
    }
}
