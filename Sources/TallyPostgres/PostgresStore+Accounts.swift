import Foundation
import PostgresNIO
import TallyCore

// The rows of migration `v7-accounts`: accounts, incomes, transfers and balance assertions, as
// the history keeps them (``RowImage``). Their figures are Core's (`AccountBook`).
extension PostgresStore {
    /// The income or transfer saved under `image`'s id, if any.
    func storedEntry(_ image: RowImage) throws(TallyError) -> RowImage? {
        guard let (table, id) = image.entryRow, let id else { return nil }
        let only = "id = \(id)"
        return try accountImages(.entries, incomes: table == "income" ? only : nil, transfers: table == "transfer" ? only : nil).first
    }

    /// Every account, income, transfer and assertion, of `kinds`; incomes and transfers only
    /// where `incomes` and `transfers` hold (none for `nil`). A table not asked for costs no
    /// round trip.
    func accountImages(
        _ kinds: RowKinds = .all, incomes: String? = "TRUE", transfers: String? = "TRUE"
    ) throws(TallyError) -> [RowImage] {
        var images: [RowImage] = []
        func rows(_ kind: RowKinds, _ condition: String?, _ sql: String) throws(TallyError) -> [PostgresRow] {
            guard kinds.contains(kind), let condition else { return [] }
            return try session.query(sql.replacingOccurrences(of: "$WHERE", with: condition))
        }
        for row in try rows(.accounts, "TRUE", "SELECT id, name, kind, openingCents, openingDate, archived, createdAt, updatedAt, number FROM account ORDER BY id") {
            let kindText = try row.string(2)
            guard let kind = AccountKind(rawValue: kindText) else { throw .storage("an account of kind \(kindText)") }
            images.append(.account(Account(
                id: try row.int(0), name: try row.string(1), kind: kind, opening: Money(cents: try row.int(3)),
                openingDate: try row.optionalInt(4).map { (number: Int64) throws(TallyError) in try Day(stored: number) },
                archived: try row.bool(5), number: try row.optionalString(8), createdAt: Milliseconds.date(try row.int(6)),
                updatedAt: Milliseconds.date(try row.int(7)))))
        }
        for row in try rows(
            .entries, incomes,
            "SELECT id, accountId, name, amountCents, date, tags, receivedBy, createdAt, updatedAt, \(ForeignCharge.columns) FROM income WHERE $WHERE ORDER BY id")
        {
            let row = row.makeRandomAccess()
            images.append(.income(Income(
                id: try row.int(0), name: try row.string(2), amount: Money(cents: try row.int(3)), date: try Day(stored: try row.int(4)),
                accountID: try row.int(1), tags: try row.strings(5).sorted(), by: try row.string(6),
                foreign: try ForeignCharge.stored(row, at: 9, of: "an income"), createdAt: Milliseconds.date(try row.int(7)),
                updatedAt: Milliseconds.date(try row.int(8)))))
        }
        for row in try rows(
            .entries, transfers, "SELECT id, fromAccountId, toAccountId, amountCents, date, name, createdAt, updatedAt FROM transfer WHERE $WHERE ORDER BY id")
        {
            images.append(.transfer(Transfer(
                id: try row.int(0), amount: Money(cents: try row.int(3)), date: try Day(stored: try row.int(4)), from: try row.int(1),
                to: try row.int(2), name: try row.string(5), createdAt: Milliseconds.date(try row.int(6)),
                updatedAt: Milliseconds.date(try row.int(7)))))
        }
        for row in try rows(.assertions, "TRUE", "SELECT accountId, date, balanceCents, createdAt FROM balanceAssertion ORDER BY accountId, date") {
            images.append(.balanceAssertion(BalanceAssertion(
                accountID: try row.int(0), date: try Day(stored: try row.int(1)), balance: Money(cents: try row.int(2)),
                createdAt: Milliseconds.date(try row.int(3)))))
        }
        return images
    }

    /// Saves an account row under its own id or key, inserting or replacing; one without an id
    /// takes the next of its kind's counter and comes back with it. `nil` for the other kinds.
    /// An income's or transfer's days move in `accountDay` (`PostgresCaches`).
    func putAccountRow(_ image: RowImage) throws(TallyError) -> RowImage? {
        if let (table, id) = image.entryRow, let id { try caches.recordEntries(.removed, of: table, where: "id = $1", [.int(id)]) }
        let saved = try putRow(image)
        if let saved, let (table, id) = saved.entryRow { try caches.recordEntries(.added, of: table, where: "id = $1", [.int(id)]) }
        return saved
    }

    private func putRow(_ image: RowImage) throws(TallyError) -> RowImage? {
        switch image {
        case .account(var account):
            if account.id == nil { account.id = try nextIDs("account") }
            try session.query(
                """
                INSERT INTO account (id, name, nameKey, kind, openingCents, openingDate, archived, createdAt, updatedAt, number)
                VALUES ($1, $2, $3, $4, $5, $6, $7 = 1, $8, $9, $10)
                ON CONFLICT (id) DO UPDATE SET name = $2, nameKey = $3, kind = $4, openingCents = $5, openingDate = $6,
                    archived = ($7 = 1), createdAt = $8, updatedAt = $9, number = $10
                """,
                [
                    .int(account.id), .text(account.name), .text(account.nameKey), .text(account.kind.rawValue), .int(account.opening.cents),
                    .int(account.openingDate?.stored), .int(account.archived ? 1 : 0), .int(Milliseconds.since1970(account.createdAt)),
                    .int(Milliseconds.since1970(account.updatedAt)), .text(account.number),
                ])
            return .account(account)
        case .income(var income):
            if income.id == nil { income.id = try nextIDs("income") }
            try session.query(
                """
                INSERT INTO income (id, accountId, name, amountCents, date, tags, receivedBy, createdAt, updatedAt, \(ForeignCharge.columns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                ON CONFLICT (id) DO UPDATE SET accountId = $2, name = $3, amountCents = $4, date = $5, tags = $6, receivedBy = $7,
                    createdAt = $8, updatedAt = $9, originalMinor = $10, originalCurrency = $11, rate = $12, rateSource = $13
                """,
                [
                    .int(income.id), .int(income.accountID), .text(income.name), .int(income.amount.cents), .int(income.date.stored),
                    .texts(income.tags), .text(income.by), .int(Milliseconds.since1970(income.createdAt)),
                    .int(Milliseconds.since1970(income.updatedAt)),
                ] + ForeignCharge.binds(income.foreign))
            return .income(income)
        case .transfer(var transfer):
            if transfer.id == nil { transfer.id = try nextIDs("transfer") }
            try session.query(
                """
                INSERT INTO transfer (id, fromAccountId, toAccountId, amountCents, date, name, createdAt, updatedAt)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (id) DO UPDATE SET fromAccountId = $2, toAccountId = $3, amountCents = $4, date = $5, name = $6,
                    createdAt = $7, updatedAt = $8
                """,
                [
                    .int(transfer.id), .int(transfer.fromAccountID), .int(transfer.toAccountID), .int(transfer.amount.cents),
                    .int(transfer.date.stored), .text(transfer.name), .int(Milliseconds.since1970(transfer.createdAt)),
                    .int(Milliseconds.since1970(transfer.updatedAt)),
                ])
            return .transfer(transfer)
        case .balanceAssertion(let assertion):
            try session.query(
                """
                INSERT INTO balanceAssertion (accountId, date, balanceCents, createdAt) VALUES ($1, $2, $3, $4)
                ON CONFLICT (accountId, date) DO UPDATE SET balanceCents = $3, createdAt = $4
                """,
                [
                    .int(assertion.accountID), .int(assertion.date.stored), .int(assertion.balance.cents),
                    .int(Milliseconds.since1970(assertion.createdAt)),
                ])
            return image
        default:
            return nil
        }
    }

    /// Removes an account row; the other kinds are not this file's.
    func deleteAccountRow(_ image: RowImage) throws(TallyError) {
        if let (table, id) = image.entryRow, let id { try caches.recordEntries(.removed, of: table, where: "id = $1", [.int(id)]) }
        switch image {
        case .account(let account): try session.query("DELETE FROM account WHERE id = $1", [.int(account.id)])
        case .income(let income): try session.query("DELETE FROM income WHERE id = $1", [.int(income.id)])
        case .transfer(let transfer): try session.query("DELETE FROM transfer WHERE id = $1", [.int(transfer.id)])
        case .balanceAssertion(let assertion):
            try session.query(
                "DELETE FROM balanceAssertion WHERE accountId = $1 AND date = $2", [.int(assertion.accountID), .int(assertion.date.stored)])
        default: break
        }
    }
}

extension RowImage {
    /// An income's or transfer's table and id: a row whose writes move `accountDay`.
    var entryRow: (table: String, id: Int64?)? {
        switch self {
        case .income(let income): ("income", income.id)
        case .transfer(let transfer): ("transfer", transfer.id)
        default: nil
        }
    }
}
