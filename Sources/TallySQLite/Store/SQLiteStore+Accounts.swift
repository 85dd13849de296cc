import Foundation
import GRDB
import TallyCore

// The rows of `Schema.v14Accounts`: accounts, incomes, transfers and balance assertions, as
// the history keeps them (``RowImage``). Their figures are Core's (`AccountBook`).
extension SQLiteStore {
    /// Every account, income, transfer and assertion, of `kinds`.
    static func accountImages(_ db: Database, _ kinds: RowKinds = .all) throws -> [RowImage] {
        var images: [RowImage] = []
        if kinds.contains(.accounts) { images += try accounts(db) }
        if kinds.contains(.entries) {
            images += try entryImages("income", db)
            images += try entryImages("transfer", db)
        }
        if kinds.contains(.assertions) { images += try assertions(db) }
        return images
    }

    private static func accounts(_ db: Database) throws -> [RowImage] {
        var images: [RowImage] = []
        let accounts = try Row.fetchCursor(
            db, sql: "SELECT id, name, kind, openingCents, openingDate, archived, createdAt, updatedAt, number FROM account ORDER BY id")
        while let row = try accounts.next() {
            let kindText: String = row[2]
            guard let kind = AccountKind(rawValue: kindText) else { throw TallyError.storage("an account of kind \(kindText)") }
            images.append(.account(Account(
                id: row[0], name: row[1], kind: kind, opening: Money(cents: row[3]),
                openingDate: try (row[4] as Int64?).map { try day($0, "an account") }, archived: row[5], number: row[8],
                createdAt: Milliseconds.date(row[6]), updatedAt: Milliseconds.date(row[7]))))
        }
        return images
    }

    private static func assertions(_ db: Database) throws -> [RowImage] {
        var images: [RowImage] = []
        let assertions = try Row.fetchCursor(
            db, sql: "SELECT accountId, date, balanceCents, createdAt FROM balanceAssertion ORDER BY accountId, date")
        while let row = try assertions.next() {
            images.append(.balanceAssertion(BalanceAssertion(
                accountID: row[0], date: try day(row[1], "a balance assertion"), balance: Money(cents: row[2]),
                createdAt: Milliseconds.date(row[3]))))
        }
        return images
    }

    /// Saves an account row under its own id or key, inserting or replacing; one without an id
    /// gets the next AUTOINCREMENT one and comes back with it. `nil` for the other kinds. An
    /// income's or transfer's days move in `accountDay` (`ExpenseCaches`).
    static func putAccountRow(_ image: RowImage, _ db: Database) throws -> RowImage? {
        let before = image.movesBalances ? try storedEntry(image, db) : nil
        let saved = try putRow(image, db)
        if let saved, saved.movesBalances {
            try ExpenseCaches.recordAccountRows(removed: before.map { [$0] } ?? [], added: [saved], db)
        }
        return saved
    }

    /// The income or transfer saved under `image`'s id, if any.
    static func storedEntry(_ image: RowImage, _ db: Database) throws -> RowImage? {
        let (table, id): (String, Int64?) =
            switch image {
            case .income(let income): ("income", income.id)
            case .transfer(let transfer): ("transfer", transfer.id)
            default: ("", nil)
            }
        guard let id else { return nil }
        return try entryImages(table, where: "id = \(id)", db).first
    }

    private static func putRow(_ image: RowImage, _ db: Database) throws -> RowImage? {
        switch image {
        case .account(var account):
            try db.execute(
                sql: """
                    INSERT INTO account (id, name, nameKey, kind, openingCents, openingDate, archived, createdAt, updatedAt, number)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, nameKey = excluded.nameKey, kind = excluded.kind,
                        openingCents = excluded.openingCents, openingDate = excluded.openingDate, archived = excluded.archived,
                        createdAt = excluded.createdAt, updatedAt = excluded.updatedAt, number = excluded.number
                    """,
                arguments: [
                    account.id, account.name, account.nameKey, account.kind.rawValue, account.opening.cents,
                    account.openingDate?.storedNumber, account.archived, Milliseconds.since1970(account.createdAt),
                    Milliseconds.since1970(account.updatedAt), account.number,
                ])
            if account.id == nil { account.id = db.lastInsertedRowID }
            return .account(account)
        case .income(var income):
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO income (id, accountId, name, amountCents, date, tags, receivedBy, createdAt, updatedAt, \(ForeignColumns.names))
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: StatementArguments([
                    income.id, income.accountID, income.name, income.amount.cents, income.date.storedNumber,
                    income.tags.joined(separator: ";"), income.by, Milliseconds.since1970(income.createdAt),
                    Milliseconds.since1970(income.updatedAt),
                ] + ForeignColumns.values(income.foreign)))
            if income.id == nil { income.id = db.lastInsertedRowID }
            return .income(income)
        case .transfer(var transfer):
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO transfer (id, fromAccountId, toAccountId, amountCents, date, name, createdAt, updatedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    transfer.id, transfer.fromAccountID, transfer.toAccountID, transfer.amount.cents, transfer.date.storedNumber,
                    transfer.name, Milliseconds.since1970(transfer.createdAt), Milliseconds.since1970(transfer.updatedAt),
                ])
            if transfer.id == nil { transfer.id = db.lastInsertedRowID }
            return .transfer(transfer)
        case .balanceAssertion(let assertion):
            try db.execute(
                sql: "INSERT OR REPLACE INTO balanceAssertion (accountId, date, balanceCents, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [
                    assertion.accountID, assertion.date.storedNumber, assertion.balance.cents, Milliseconds.since1970(assertion.createdAt),
                ])
            return image
        default:
            return nil
        }
    }

    /// Removes an account row; the other kinds are not this file's.
    static func deleteAccountRow(_ image: RowImage, _ db: Database) throws {
        if image.movesBalances, let stored = try storedEntry(image, db) {
            try ExpenseCaches.recordAccountRows(removed: [stored], added: [], db)
        }
        switch image {
        case .account(let account): try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [account.id])
        case .income(let income): try db.execute(sql: "DELETE FROM income WHERE id = ?", arguments: [income.id])
        case .transfer(let transfer): try db.execute(sql: "DELETE FROM transfer WHERE id = ?", arguments: [transfer.id])
        case .balanceAssertion(let assertion):
            try db.execute(
                sql: "DELETE FROM balanceAssertion WHERE accountId = ? AND date = ?",
                arguments: [assertion.accountID, assertion.date.storedNumber])
        default: break
        }
    }

    /// The incomes (`table` `income`) or transfers (`transfer`) that `condition` selects, by id.
    private static func entryImages(_ table: String, where condition: String = "TRUE", _ db: Database) throws -> [RowImage] {
        var images: [RowImage] = []
        if table == "income" {
            let incomes = try Row.fetchCursor(
                db,
                sql: "SELECT id, accountId, name, amountCents, date, tags, receivedBy, createdAt, updatedAt, \(ForeignColumns.names) FROM income WHERE \(condition) ORDER BY id")
            while let row = try incomes.next() {
                let tags: String = row[5]
                let id: Int64 = row[0]
                images.append(.income(Income(
                    id: id, name: row[2], amount: Money(cents: row[3]), date: try day(row[4], "an income"), accountID: row[1],
                    tags: TagSetKey.tags(tags), by: row[6], foreign: try ForeignColumns.charge(row[9], row[10], row[11], row[12], of: "income #\(id)"),
                    createdAt: Milliseconds.date(row[7]), updatedAt: Milliseconds.date(row[8]))))
            }
        } else {
            let transfers = try Row.fetchCursor(
                db, sql: "SELECT id, fromAccountId, toAccountId, amountCents, date, name, createdAt, updatedAt FROM transfer WHERE \(condition) ORDER BY id")
            while let row = try transfers.next() {
                images.append(.transfer(Transfer(
                    id: row[0], amount: Money(cents: row[3]), date: try day(row[4], "a transfer"), from: row[1], to: row[2], name: row[5],
                    createdAt: Milliseconds.date(row[6]), updatedAt: Milliseconds.date(row[7]))))
            }
        }
        return images
    }
}

extension RowImage {
    /// An income or a transfer: a row whose writes move `accountDay`.
    var movesBalances: Bool {
        switch self {
        case .income, .transfer: true
        default: false
        }
    }
}
