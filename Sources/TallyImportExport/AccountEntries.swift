import Foundation
import TallyCore

// The accounts of a document (version 7) and the rows that name them. Accounts are named, as
// budgets are, so an import may give every row a new id; each field a row does not use is left out.

/// An account in a document: `name`, `kind`, `opening`; `openingDate` and `number` (its IBAN
/// or account number) when set, `archived` only when true.
public struct AccountDTO: Codable, Hashable, Sendable {
    public var name: String
    /// `checking`, `savings`, `credit`, `cash` or `loan`.
    public var kind: String
    /// The opening balance, `-12.50` when negative: held for an asset, owed for a liability.
    public var opening: String
    /// `YYYY-MM-DD`.
    public var openingDate: String?
    public var archived: Bool?
    public var number: String?

    public init(_ account: Account) {
        number = account.number
        name = account.name
        kind = account.kind.rawValue
        opening = account.opening.plainString
        openingDate = account.openingDate?.isoString
        archived = account.archived ? true : nil
    }

    /// The account this entry describes, validated; errors name the entry.
    public func account(index: Int) throws(TallyError) -> Account {
        let place = "accounts[\(index)]"
        guard let kindValue = AccountKind(rawValue: kind) else {
            throw invalid(place, "kind", kind, "use \(AccountKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let openingValue = try signedAmount(place, "opening", opening)
        let day = try openingDate.map { (text: String) throws(TallyError) in try parsedDay(place, "openingDate", text) }
        do {
            return try Account(
                name: name, kind: kindValue, opening: openingValue, openingDate: day, archived: archived ?? false, number: number,
                createdAt: CSVRowMapper.placeholderDate
            ).validated()
        } catch {
            if case .invalidAccountNumber = error { throw invalid(place, "number", number ?? "", error.errorDescription ?? "invalid number") }
            if case .amountOutOfRange = error { throw invalid(place, "opening", opening, error.errorDescription ?? "out of range") }
            throw invalid(place, "name", name, error.errorDescription ?? "invalid name")
        }
    }
}

/// An income in a document: `name` (who paid it), `amount`, `date`, `account`, `tags`; `by`,
/// who received it, when someone did; and (version 13) for an income in another currency
/// `original`, `rate` and `rateSource`, as an expense's (``ExpenseDTO/original``).
public struct IncomeDTO: Codable, Hashable, Sendable {
    public var name: String
    public var amount: String
    public var date: String
    public var account: String
    public var tags: [String]
    public var by: String?
    public var original: OriginalDTO?
    public var rate: String?
    public var rateSource: String?

    public init(_ income: Income, account: String) {
        name = income.name
        amount = income.amount.plainString
        date = income.date.isoString
        self.account = account
        tags = income.tags
        by = income.by.isEmpty ? nil : income.by
        original = OriginalDTO(income.foreign)
        rate = income.foreign?.rate.plainString
        rateSource = income.foreign?.source.rawValue
    }

    /// The income this entry describes, validated, with its account's name; errors name the entry.
    public func declared(index: Int) throws(TallyError) -> DeclaredIncome {
        let place = "incomes[\(index)]"
        let amountValue = try parsedAmount(place, "amount", amount)
        let day = try parsedDay(place, "date", date)
        let accountName = try validatedAccountName(place, "account", account)
        let foreign = try OriginalDTO.charge(original, rate: rate, rateSource: rateSource) { field, value, reason in
            invalid(place, field, value, reason)
        }
        do {
            let income = try Income(
                name: name, amount: amountValue, date: day, accountID: 0, tags: tags, by: by ?? "", foreign: foreign,
                createdAt: CSVRowMapper.placeholderDate
            ).validated()
            return DeclaredIncome(income, account: accountName)
        } catch {
            let (field, value): (String, String) =
                switch error {
                case .nameTooLong(.person, _, _), .nameHasControlCharacters(.person, _): ("by", by ?? "")
                case .invalidTag: ("tags", tags.joined(separator: ";"))
                case .emptyName, .nameTooLong, .nameHasControlCharacters: ("name", name)
                default: ("amount", amount)
                }
            throw invalid(place, field, value, error.errorDescription ?? "invalid value")
        }
    }
}

/// A transfer in a document: `amount`, `date`, `from` and `to` (account names); `name` when it has one.
public struct TransferDTO: Codable, Hashable, Sendable {
    public var amount: String
    public var date: String
    public var from: String
    public var to: String
    public var name: String?

    public init(_ transfer: Transfer, from: String, to: String) {
        amount = transfer.amount.plainString
        date = transfer.date.isoString
        self.from = from
        self.to = to
        name = transfer.name.isEmpty ? nil : transfer.name
    }

    /// The transfer this entry describes, validated, with its accounts' names; errors name the entry.
    public func declared(index: Int) throws(TallyError) -> DeclaredTransfer {
        let place = "transfers[\(index)]"
        let amountValue = try parsedAmount(place, "amount", amount)
        let day = try parsedDay(place, "date", date)
        let source = try validatedAccountName(place, "from", from)
        let target = try validatedAccountName(place, "to", to)
        // Stand-in ids: the same account, by name key, is the same id.
        let targetID: Int64 = NameKey.make(source) == NameKey.make(target) ? 1 : 2
        do {
            let transfer = try Transfer(
                amount: amountValue, date: day, from: 1, to: targetID, name: name ?? "", createdAt: CSVRowMapper.placeholderDate
            ).validated()
            return DeclaredTransfer(transfer, from: source, to: target)
        } catch {
            let (field, value): (String, String) =
                switch error {
                case .transferToSameAccount: ("to", to)
                case .emptyName, .nameTooLong, .nameHasControlCharacters: ("name", name ?? "")
                default: ("amount", amount)
                }
            throw invalid(place, field, value, error.errorDescription ?? "invalid value")
        }
    }
}

/// A balance assertion in a document: `account`, `date`, `balance` (`-12.50` when negative).
public struct AssertionDTO: Codable, Hashable, Sendable {
    public var account: String
    public var date: String
    public var balance: String

    public init(_ assertion: BalanceAssertion, account: String) {
        self.account = account
        date = assertion.date.isoString
        balance = assertion.balance.plainString
    }

    /// The assertion this entry describes, validated, with its account's name; errors name the entry.
    public func declared(index: Int) throws(TallyError) -> DeclaredAssertion {
        let place = "assertions[\(index)]"
        let accountName = try validatedAccountName(place, "account", account)
        let day = try parsedDay(place, "date", date)
        let value = try signedAmount(place, "balance", balance)
        do {
            return DeclaredAssertion(try BalanceAssertion(accountID: 0, date: day, balance: value).validated(), account: accountName)
        } catch {
            throw invalid(place, "balance", balance, error.errorDescription ?? "out of range")
        }
    }
}

extension LedgerDocument {
    /// The accounts and the rows that name them, validated by the models' rules; an entry may
    /// name an account of the document or one the ledger already has.
    public func validatedAccounts() throws(TallyError) -> DeclaredAccounts {
        var declared = DeclaredAccounts()
        for (index, dto) in (accounts ?? []).enumerated() { declared.accounts.append(try dto.account(index: index)) }
        for (index, dto) in (incomes ?? []).enumerated() { declared.incomes.append(try dto.declared(index: index)) }
        for (index, dto) in (transfers ?? []).enumerated() { declared.transfers.append(try dto.declared(index: index)) }
        for (index, dto) in (assertions ?? []).enumerated() { declared.assertions.append(try dto.declared(index: index)) }
        if let name = settings?.defaultAccount {
            guard declared.placeholder(forAccountNamed: name) != nil else {
                throw invalid("settings", "defaultAccount", name, "the document has no account of that name")
            }
            declared.defaultAccount = name
        }
        return declared
    }
}

// MARK: - Fields

private func invalid(_ place: String, _ field: String, _ value: String, _ reason: String) -> TallyError {
    .importFile(line: nil, reason: "\(place).\(field) \(quoted(value)): \(reason)")
}

private func parsedAmount(_ place: String, _ field: String, _ text: String) throws(TallyError) -> Money {
    do {
        return try Money(parsing: text)
    } catch {
        throw invalid(place, field, text, error.errorDescription ?? "invalid amount")
    }
}

/// A balance, which may be negative: `-12.50`.
private func signedAmount(_ place: String, _ field: String, _ text: String) throws(TallyError) -> Money {
    do {
        guard text.hasPrefix("-") else { return try Money(parsing: text) }
        return Money(cents: -(try Money(parsing: String(text.dropFirst())).cents))
    } catch {
        throw invalid(place, field, text, error.errorDescription ?? "invalid amount")
    }
}

private func parsedDay(_ place: String, _ field: String, _ text: String) throws(TallyError) -> Day {
    do {
        return try Day(parsing: text)
    } catch {
        throw invalid(place, field, text, error.errorDescription ?? "invalid date")
    }
}

private func validatedAccountName(_ place: String, _ field: String, _ name: String) throws(TallyError) -> String {
    do {
        return try Account(name: name, kind: .checking, createdAt: CSVRowMapper.placeholderDate).validated().name
    } catch {
        throw invalid(place, field, name, error.errorDescription ?? "not a valid account name")
    }
}
