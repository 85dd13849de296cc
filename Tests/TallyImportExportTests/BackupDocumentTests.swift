import Foundation
import Testing
import TallyCore
@testable import TallyImportExport

/// A JSON backup holds every field of every budget and the ledger's settings (version 2), and
/// still reads what the previous version wrote.
struct BackupDocumentTests {
    /// 2025-12-15 12:00:00.987 UTC, with digits below the millisecond the stores drop.
    private let created = Date(timeIntervalSince1970: 1_765_800_000.987_654)
    private let payDay = LedgerSettings(calendar: try! PeriodCalendar(monthStart: 25))

    private func budgets() throws -> [Budget] {
        [
            Budget(
                name: "Holiday", limit: try Money(parsing: "2400"), period: .yearly, rollover: .both,
                cap: try Money(parsing: "3000"), start: try Month(parsing: "2025-01"),
                limitChanges: [
                    LimitChange(from: try Month(parsing: "2026-01"), limit: try Money(parsing: "1800")),
                    LimitChange(from: try Month(parsing: "2027-01"), limit: try Money(parsing: "2000.50")),
                ],
                createdAt: created),
            Budget(
                name: "Trip \"east\"", limit: try Money(parsing: "900"), period: .once,
                range: DayInterval(first: try Day(parsing: "2026-03-20"), last: try Day(parsing: "2026-04-05")), createdAt: created),
            Budget(name: "Food", limit: try Money(parsing: "300"), rollover: .surplus, cap: try Money(parsing: "700"), createdAt: created),
            Budget(name: "Rent", limit: try Money(parsing: "1200"), createdAt: Date(timeIntervalSince1970: -86_400.5)),
        ]
    }

    private func export(_ budgets: [Budget], settings: LedgerSettings) throws -> MemorySink {
        let sink = MemorySink()
        let writer = JSONExportWriter(sink: sink)
        try writer.begin(budgets: budgets, settings: settings)
        try writer.finish()
        return sink
    }

    /// Each budget as the document gives it back: no id yet, created to the millisecond.
    private func restored(_ budget: Budget) -> Budget {
        var expected = budget
        expected.createdAt = budget.createdAt.roundedToMilliseconds
        expected.updatedAt = expected.createdAt
        return expected
    }

    @Test func everyBudgetFieldAndTheSettingsRoundTrip() throws {
        let budgets = try budgets()
        let sink = try export(budgets, settings: payDay)
        #expect(sink.string == """
            {
              "version": 2,
              "settings": {"monthStart": 25},
              "budgets": [
                {"name": "Holiday", "limit": "2400.00", "period": "yearly", "rollover": "both", "cap": "3000.00", "start": "2025-01", "limits": [{"from": "2026-01", "limit": "1800.00"}, {"from": "2027-01", "limit": "2000.50"}], "created": "2025-12-15T12:00:00.988Z"},
                {"name": "Trip \\"east\\"", "limit": "900.00", "period": "once", "from": "2026-03-20", "to": "2026-04-05", "created": "2025-12-15T12:00:00.988Z"},
                {"name": "Food", "limit": "300.00", "period": "monthly", "rollover": "surplus", "cap": "700.00", "created": "2025-12-15T12:00:00.988Z"},
                {"name": "Rent", "limit": "1200.00", "period": "monthly", "created": "1969-12-30T23:59:59.500Z"}
              ],
              "expenses": []
            }

            """)
        let document = try LedgerDocument.decode(Data(sink.bytes))
        #expect(document.version == 2)
        #expect(document.settings == SettingsDTO(monthStart: 25))
        #expect(document.budgets == budgets.map(BudgetDTO.init))
        #expect(document.budgets[0].limits == [LimitDTO(from: "2026-01", limit: "1800.00"), LimitDTO(from: "2027-01", limit: "2000.50")])
        #expect(try document.validatedSettings() == payDay)
        #expect(try document.keepsCreationDates())
        // The nearest millisecond is written. A store's budgets are whole milliseconds already,
        // so what it exports comes back exactly.
        let decoded = try document.validatedBudgets()
        #expect(decoded.map(\.createdAt) == [Date(timeIntervalSince1970: 1_765_800_000.988), Date(timeIntervalSince1970: 1_765_800_000.988),
            Date(timeIntervalSince1970: 1_765_800_000.988), Date(timeIntervalSince1970: -86_400.5)])
        let stored = budgets.map { budget in
            var stored = budget
            stored.createdAt = Date(timeIntervalSince1970: 1_765_800_000.988)
            return stored
        }
        #expect(try LedgerDocument.decode(Data(try export(Array(stored.prefix(3)), settings: payDay).bytes)).validatedBudgets()
            == stored.prefix(3).map(restored))
        // JSONEncoder writes the same document the streaming writer does.
        #expect(try LedgerDocument.decode(try JSONEncoder().encode(document)) == document)
    }

    @Test func theVersionIsOneUntilAVersionOneReaderWouldLoseSomething() throws {
        let plain = Budget(name: "Food", limit: Money(cents: 100))
        #expect(LedgerDocument.version(budgets: [], settings: LedgerSettings()) == 1)
        #expect(LedgerDocument.version(budgets: [plain], settings: LedgerSettings()) == 1)
        #expect(LedgerDocument.version(budgets: [plain], settings: payDay) == 2)
        var changes: [Budget] = []
        for change in 0..<6 {
            var budget = plain
            switch change {
            case 0: budget.period = .yearly
            case 1: budget.rollover = .surplus
            case 2: budget.cap = Money(cents: 500)
            case 3: budget.start = try Month(parsing: "2026-01")
            case 4:
                budget.period = .once
                budget.range = DayInterval(first: try Day(parsing: "2026-01-01"), last: try Day(parsing: "2026-01-02"))
            default: budget.limitChanges = [LimitChange(from: try Month(parsing: "2026-02"), limit: Money(cents: 200))]
            }
            changes.append(budget)
            #expect(LedgerDocument.version(budgets: [plain, budget], settings: LedgerSettings()) == 2, "\(change)")
        }
        #expect(try LedgerDocument.decode(Data(try export(changes, settings: LedgerSettings()).bytes)).version == 2)
        #expect(try LedgerDocument.decode(Data(try export([plain], settings: LedgerSettings()).bytes)).version == 1)
    }

    /// A currency is version 3: a version-2 reader would drop it without a word.
    @Test func aCurrencyMakesVersionThreeAndComesBack() throws {
        let euro = LedgerSettings(calendar: payDay.calendar, currency: try Currency(code: "EUR"))
        #expect(LedgerDocument.version(budgets: [], settings: euro) == 3)
        let written = try export([Budget(name: "Food", limit: Money(cents: 100))], settings: euro)
        #expect(String(decoding: written.bytes, as: UTF8.self).contains(#""settings": {"monthStart": 25, "currency": "EUR"}"#))
        let document = try LedgerDocument.decode(Data(written.bytes))
        #expect(document.version == 3)
        #expect(try document.validatedSettings() == euro)
        #expect(try LedgerDocument.decode(try JSONEncoder().encode(document)) == document)
    }

    /// What `tally export --format json` wrote before budgets had periods: it reads as it did.
    @Test func aVersionOneDocumentImportsAsBefore() throws {
        let text = """
            {
              "version": 1,
              "budgets": [
                {"name": "Food", "limit": "400.00", "period": "monthly"},
                {"name": "Fun", "limit": "50.00", "period": "monthly"}
              ],
              "expenses": [
                {"id": 1, "name": "Bread", "amount": "2.50", "quantity": 2, "total": "5.00", "date": "2024-01-02", "budget": "Food", "tags": ["bakery"]}
              ]
            }

            """
        let document = try LedgerDocument.decode(Data(text.utf8))
        #expect(document == LedgerDocument(
            version: 1,
            budgets: [BudgetDTO(name: "Food", limit: "400.00", period: "monthly"), BudgetDTO(name: "Fun", limit: "50.00", period: "monthly")],
            expenses: [ExpenseDTO(id: 1, name: "Bread", amount: "2.50", quantity: 2, total: "5.00", date: "2024-01-02", budget: "Food", tags: ["bakery"])]))
        #expect(try document.validatedBudgets() == [
            Budget(name: "Food", limit: Money(cents: 40_000), createdAt: CSVRowMapper.placeholderDate),
            Budget(name: "Fun", limit: Money(cents: 5_000), createdAt: CSVRowMapper.placeholderDate),
        ])
        #expect(try document.validatedSettings() == nil)
        #expect(try !document.keepsCreationDates())
        let plan = try ImportPlanner.plan(.bytes(Array(text.utf8)), format: .json)
        #expect(plan.summary.declaredBudgets.map(\.name) == ["Food", "Fun"])
        #expect(plan.summary.declaredSettings == nil && !plan.summary.keepsCreationDates)
        #expect(plan.summary.expenseCount == 1)
    }

    @Test func badValuesFailTheImportNamingThem() throws {
        func failure(_ reason: String, _ budget: String, settings: String = #"{"monthStart": 1}"#) -> (String, String) {
            (reason, #"{"version": 2, "settings": \#(settings), "budgets": [\#(budget)], "expenses": []}"#)
        }
        let cases: [(String, String)] = [
            failure(
                "settings.currency: unknown currency 'EURO': use an ISO 4217 code such as EUR, USD or GBP", "",
                settings: #"{"monthStart": 1, "currency": "EURO"}"#),
            failure("budgets[0].period 'weekly': use monthly, yearly, once", #"{"name": "A", "limit": "1", "period": "weekly"}"#),
            failure("budgets[0].rollover 'all': use none, surplus, both", #"{"name": "A", "limit": "1", "period": "monthly", "rollover": "all"}"#),
            failure("budgets[0].cap '0.00': budget cap 0.00 must be greater than 0", #"{"name": "A", "limit": "1", "period": "monthly", "cap": "0.00"}"#),
            failure(
                "budgets[0].cap '1000000000.01': amount '1000000000.01' is out of range: the maximum is 1,000,000,000.00",
                #"{"name": "A", "limit": "1", "period": "monthly", "cap": "1000000000.01"}"#),
            failure("budgets[0].period 'once': a once budget needs the first and last day it covers", #"{"name": "A", "limit": "1", "period": "once"}"#),
            failure(
                #"budgets[0].from '2026-01-01': a range needs its last day in "to" too"#,
                #"{"name": "A", "limit": "1", "period": "once", "from": "2026-01-01"}"#),
            failure(
                "budgets[0].to '2025-12-31': the range 2026-01-01 to 2025-12-31 ends before it starts",
                #"{"name": "A", "limit": "1", "period": "once", "from": "2026-01-01", "to": "2025-12-31"}"#),
            failure(
                "budgets[0].from '2026-01-01': only a once budget covers a range of days",
                #"{"name": "A", "limit": "1", "period": "monthly", "from": "2026-01-01", "to": "2026-01-31"}"#),
            failure(
                "budgets[0].rollover 'surplus': only monthly and yearly budgets roll over",
                #"{"name": "A", "limit": "1", "period": "once", "rollover": "surplus", "from": "2026-01-01", "to": "2026-01-31"}"#),
            failure("budgets[0].start '2026-13': invalid month '2026-13': use YYYY-MM", #"{"name": "A", "limit": "1", "period": "monthly", "start": "2026-13"}"#),
            failure(
                "budgets[0].limits[1].limit '0': budget limit 0.00 must be greater than 0",
                #"{"name": "A", "limit": "1", "period": "monthly", "limits": [{"from": "2026-02", "limit": "2"}, {"from": "2026-03", "limit": "0"}]}"#),
            failure(
                "budgets[0].limits '2026-02': a limit change from 2026-02 is not after the budget's first period and its earlier changes",
                #"{"name": "A", "limit": "1", "period": "monthly", "start": "2026-02", "limits": [{"from": "2026-02", "limit": "2"}]}"#),
            failure(
                "budgets[0].created '2026-01-31 09:30': not a UTC time like 2026-01-31T09:30:00.000Z",
                #"{"name": "A", "limit": "1", "period": "monthly", "created": "2026-01-31 09:30"}"#),
            failure("settings.monthStart '30': invalid month start 30: use a day from 1 to 28", "", settings: #"{"monthStart": 30}"#),
            failure(
                #"budgets[1] 'B' has no "created" while budgets[0] has one: give every budget its creation time, or none"#,
                #"{"name": "A", "limit": "1", "period": "monthly", "created": "2026-01-31T09:30:00.000Z"}, {"name": "B", "limit": "1", "period": "monthly"}"#),
        ]
        for (reason, text) in cases {
            let expected = TallyError.importFile(line: nil, reason: reason)
            #expect(throws: expected, "\(text)") { try ImportPlanner.plan(.bytes(Array(text.utf8)), format: .json) }
            #expect(expected.errorDescription?.contains("\n") == false)
        }
    }

    @Test(arguments: [
        "1970-01-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z", "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
        "1969-12-31T23:59:59.999Z", "2026-11-25T02:16:21.123Z", "1600-03-01T12:00:00.001Z",
    ])
    func documentTimesReadBackWhatTheyWrite(text: String) throws {
        let date = try #require(DocumentTime.date(text))
        #expect(DocumentTime.string(date) == text)
    }

    @Test func documentTimesAreStrict() {
        for text in [
            "", "2026-01-31T09:30:00Z", "2026-01-31T09:30:00.000", "2026-02-30T09:30:00.000Z", "2026-01-31T24:00:00.000Z",
            "2026-01-31T09:60:00.000Z", "2026-01-31T09:30:60.000Z", "0000-01-01T00:00:00.000Z", "2026-01-31T09:30:00.000+01:00",
            "2026-01-31 09:30:00.000Z", "+026-01-31T09:30:00.000Z",
        ] {
            #expect(DocumentTime.date(text) == nil, "\(text)")
        }
        #expect(DocumentTime.string(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59.999Z")
        #expect(DocumentTime.string(Date(timeIntervalSince1970: -1e300)) == "0001-01-01T00:00:00.000Z")
        #expect(DocumentTime.string(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00.000Z")
    }
}
