import Foundation
import GRDB
import TallyCore

/// Each day's spending per budget, tag set and person, `expenseDay`'s rows
/// (`Schema.v12ExpenseDays`), summed in Swift for `ExpenseCaches`, their one writer: a group's
/// sum and count of portions (Core's ``Expense/portions``), and the largest sort key
/// (`amountCents × quantity`) of the expenses with a portion in it (`Schema.v25ReportBounds`),
/// which bounds the largest expenses (`SQLiteStore.largestExpenseIDs`).
struct DayTotals {
    /// Who spent it is a number here, an index into `people`, so that a row's text is compared
    /// with the row before's instead of hashed: hashing each row's text would be a large part of
    /// what this cache adds to an import.
    private struct Key: Hashable {
        let date: Int64
        let budgetID: Int64
        /// 0 for no tags, as `expenseDay` stores it.
        let tagSetID: Int64
        let person: Int

        // One combined value: the hasher's cost is per value combined.
        func hash(into hasher: inout Hasher) {
            hasher.combine(date &* 1_000_003 &+ budgetID &* 65_599 &+ tagSetID &* 257 &+ Int64(person))
        }

        /// SQLite's order of the rows (people by their bytes), which makes the writes sequential.
        func precedes(_ other: Key, _ people: [String]) -> Bool {
            if date != other.date { return date < other.date }
            if budgetID != other.budgetID { return budgetID < other.budgetID }
            if tagSetID != other.tagSetID { return tagSetID < other.tagSetID }
            return people[person].utf8.lexicographicallyPrecedes(people[other.person].utf8)
        }
    }

    private struct Figure {
        /// `nil` once the sum overflowed; it is then stored as a REAL, which sends the readers back
        /// to the expenses.
        var cents: Int64? = 0
        var count: Int64 = 0
        var largest = Int64.min

        mutating func add(_ total: Int64, receipt: Int64) {
            cents = cents.flatMap { sum in
                let (value, overflow) = sum.addingReportingOverflow(total)
                return overflow ? nil : value
            }
            count += 1
            largest = max(largest, receipt)
        }
    }

    private var figures: [Key: Figure] = [:]
    private var people: [String] = []
    /// By bytes, as SQLite compares them: Swift's == would take two spellings of é for one.
    private var personIndex: [PersonBytes: Int] = [:]
    private var lastPerson: (by: String, index: Int)?

    private struct PersonBytes: Hashable {
        let text: String

        static func == (lhs: PersonBytes, rhs: PersonBytes) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

        func hash(into hasher: inout Hasher) {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }

    /// `date` is the stored `YYYYMMDD` number, `cents` what the portion counts, `receipt` its
    /// whole expense's sort key.
    mutating func add(date: Int64, budgetID: Int64, tagSetID: Int64?, by: String, cents: Int64, receipt: Int64) {
        let key = Key(date: date, budgetID: budgetID, tagSetID: tagSetID ?? 0, person: person(by))
        figures[key, default: Figure()].add(cents, receipt: receipt)
    }

    /// Rows mostly repeat who spent them, so the last one is compared first.
    private mutating func person(_ by: String) -> Int {
        if let last = lastPerson, Self.sameBytes(last.by, by) { return last.index }
        let index: Int
        if let known = personIndex[PersonBytes(text: by)] {
            index = known
        } else {
            index = people.count
            people.append(by)
            personIndex[PersonBytes(text: by)] = index
        }
        lastPerson = (by, index)
        return index
    }

    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        var (lhs, rhs) = (lhs, rhs)
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                guard left.count == right.count else { return false }
                guard let a = left.baseAddress, let b = right.baseAddress else { return true }
                return memcmp(a, b, left.count) == 0
            }
        }
    }

    /// Adds one expense's total to its group's row, as `add` then `save` would, without their
    /// dictionaries (see `ExpenseCaches.added`).
    static func saveOne(date: Int64, budgetID: Int64, tagSetID: Int64?, by: String, cents: Int64, receipt: Int64, _ db: Database) throws {
        try db.makeStatement(sql: saveSQL).execute(arguments: [date, budgetID, tagSetID ?? 0, by, cents, 1, receipt])
    }

    private static let saveSQL = """
        INSERT INTO expenseDay (date, budgetId, tagSetId, spentBy, spentCents, expenseCount, largestCents)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (date, budgetId, tagSetId, spentBy) DO UPDATE
        SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + excluded.expenseCount,
            largestCents = max(largestCents, excluded.largestCents)
        """

    /// Adds the sums to the stored ones, in the table's order, bound through SQLite's C API:
    /// binding each group through GRDB's arguments costs about as much again as writing it.
    func save(_ db: Database) throws {
        let statement = try RawStatement(db, Self.saveSQL)
        for (key, figure) in sortedFigures {
            bind(key, figure, to: statement)
            try statement.step()
        }
    }

    private var sortedFigures: [(key: Key, value: Figure)] {
        let people = self.people
        return figures.sorted { $0.key.precedes($1.key, people) }
    }

    /// Binds a group as `saveSQL` and `subtract` take it: its key, then sum, count and largest.
    private func bind(_ key: Key, _ figure: Figure, to statement: RawStatement) {
        bind(key, to: statement)
        if let cents = figure.cents { statement.bind(5, cents) } else { statement.bind(5, Double(Int64.max) * 2) }
        statement.bind(6, figure.count)
        statement.bind(7, figure.largest)
    }

    /// Binds a group's key as parameters 1 to 4.
    private func bind(_ key: Key, to statement: RawStatement) {
        statement.bind(1, key.date)
        statement.bind(2, key.budgetID)
        statement.bind(3, key.tagSetID)
        statement.bind(4, people[key.person])
    }

    /// Takes the sums from the stored ones, once the expenses they sum are gone: a group left
    /// empty goes, and one that lost its largest looks up the next: among the rows of its key in
    /// the covering index, and the day's split rows of its person with a line in its budget
    /// (`expense_detail`, read from the largest total down to the first). Those splits' lines may
    /// lie in other tag sets: the bound may stay above the exact largest, never below it.
    func subtract(_ db: Database) throws {
        let update = try RawStatement(db, """
            UPDATE expenseDay SET spentCents = spentCents - ?5, expenseCount = expenseCount - ?6,
                largestCents = CASE WHEN largestCents > ?7 THEN largestCents ELSE max(ifnull((
                    SELECT max(amountCents * quantity) FROM expense WHERE date = ?1 AND budgetId = ?2
                        AND tagSetId IS nullif(?3, 0) AND spentBy = ?4), 0), ifnull((
                    SELECT amountCents * quantity FROM expense INDEXED BY expense_detail WHERE detail <> '' AND date = ?1
                        AND spentBy = ?4 AND instr(char(30) || detail, char(30) || ?2 || char(29)) > 0
                        ORDER BY amountCents * quantity DESC LIMIT 1), 0)) END
            WHERE date = ?1 AND budgetId = ?2 AND tagSetId = ?3 AND spentBy = ?4
            """)
        let empty = try RawStatement(db, "DELETE FROM expenseDay WHERE date = ?1 AND budgetId = ?2 AND tagSetId = ?3 AND spentBy = ?4 AND expenseCount = 0")
        for (key, figure) in sortedFigures {
            bind(key, figure, to: update)
            try update.step()
            bind(key, to: empty)
            try empty.step()
        }
    }
}
