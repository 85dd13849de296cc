import TallyCore

// What a bank statement file holds, as every statement reader hands it on: the statements, each
// for one account, their entries and their balances. The readers only read; what the entries
// become (expenses, incomes, transfers) is decided above them, once for every format.

/// The bank statement formats `tally import` reads besides CSV and JSON.
public enum StatementFormat: String, CaseIterable, Hashable, Sendable {
    /// OFX 1.x (SGML) and 2.x (XML); QFX is OFX.
    case ofx
    /// ISO 20022 `BkToCstmrStmt`, `camt.053.001.02` to `.08`.
    case camt053
    /// SWIFT MT940 customer statements.
    case mt940
    /// Quicken Interchange Format.
    case qif
}

/// The account a statement is for, as the bank names it.
public struct StatementAccount: Hashable, Sendable {
    /// The IBAN, in capitals without spaces (``StatementText/accountNumber(_:)``).
    public var iban: String?
    /// Another account number (OFX `ACCTID`, MT940 `:25:` that is not an IBAN), normalized the same way.
    public var number: String?
    /// The statement's ISO 4217 currency code, in capitals, when the file gives one.
    public var currency: String?

    public init(iban: String? = nil, number: String? = nil, currency: String? = nil) {
        self.iban = iban
        self.number = number
        self.currency = currency
    }

    /// How messages name the account: its IBAN, else its number, else nothing.
    public var label: String? { iban ?? number }
}

/// A balance the bank states, on the day it states it for.
public struct StatementBalance: Hashable, Sendable {
    /// Signed: negative is an overdraft (or, for a card, money owed).
    public var amount: Money
    public var day: Day

    public init(amount: Money, day: Day) {
        self.amount = amount
        self.day = day
    }
}

/// One booked transaction of a statement.
public struct StatementEntry: Hashable, Sendable {
    /// The booking day, as the bank's own calendar has it: a time or time zone in the file never
    /// moves it to another day.
    public var date: Day
    /// Signed hundredths of the statement's currency: negative is money out of the account.
    public var amount: Money
    /// The bank's own id of the transaction, for dedupe: OFX `FITID`; camt `AcctSvcrRef`, else
    /// `NtryRef`, else `EndToEndId`; MT940 the `:61:` bank reference. `nil` when the file has none.
    public var bankID: String?
    /// Who the money went to or came from; when the file names no one, its remittance text,
    /// else its transaction type. Never empty.
    public var name: String
    /// The remittance text or memo, when the file gives one besides the name; may be empty.
    public var memo: String
    /// The other side's IBAN or account number, normalized (``StatementText/accountNumber(_:)``).
    public var counterparty: String?
    /// Where the entry starts in the file, 1-based, for messages.
    public var line: Int
    /// What the entry was in another currency before the bank booked ``amount``, when the file
    /// says (OFX `ORIGCURRENCY` or `CURRENCY`, camt `InstdAmt` with `CcyXchg`).
    public var original: StatementOriginal?

    public init(
        date: Day, amount: Money, bankID: String? = nil, name: String, memo: String = "", counterparty: String? = nil, line: Int,
        original: StatementOriginal? = nil
    ) {
        self.original = original
        self.date = date
        self.amount = amount
        self.bankID = bankID
        self.name = name
        self.memo = memo
        self.counterparty = counterparty
        self.line = line
    }
}

/// An entry's amount in the currency it was made in, beside the booked amount in the
/// statement's currency, which stays authoritative.
public struct StatementOriginal: Hashable, Sendable {
    /// Unsigned, in its currency's own minor units.
    public var amount: CurrencyAmount
    /// Units of the statement's currency per one unit of the original's, as the file states it.
    public var rate: ExchangeRate?

    public init(amount: CurrencyAmount, rate: ExchangeRate? = nil) {
        self.amount = amount
        self.rate = rate
    }
}

/// What a statement says about itself, known once its last entry is read.
public struct StatementSummary: Hashable, Sendable {
    /// The days the statement covers, when the file says.
    public var period: DayInterval?
    public var opening: StatementBalance?
    /// OFX `LEDGERBAL`, camt `CLBD`, MT940 `:62F:`.
    public var closing: StatementBalance?

    public init(period: DayInterval? = nil, opening: StatementBalance? = nil, closing: StatementBalance? = nil) {
        self.period = period
        self.opening = opening
        self.closing = closing
    }
}

/// What a reader hands on, in file order: for each statement, `begin`, its entries, then `end`.
public enum StatementEvent: Hashable, Sendable {
    /// A statement begins. `index` counts the file's statements from 1; `id` is the statement's
    /// own id when the file gives one (camt `Stmt/Id`, MT940 `:20:`).
    case begin(account: StatementAccount, index: Int, id: String?)
    case entry(StatementEntry)
    case end(StatementSummary)
}

/// Reads one statement format as a stream: memory stays bounded by the largest entry, whatever
/// the file's size, and no reader builds a tree of the whole file.
public protocol StatementReader {
    /// Reads all of `input`, handing each event to `visit` in file order. The first problem
    /// throws: ``TallyError/importFile(line:reason:hint:)`` naming the line (or `nil` where a
    /// format has none) and the offending value. A file that ends before its last statement does
    /// is such a problem, however well-formed its start.
    static func read(_ input: ImportInput, _ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError)
}

/// The limits every reader holds a file to, so a hostile file is refused in bounded memory.
public enum StatementLimits {
    /// The longest text of one field (a name, a memo, an id), in bytes.
    public static let maximumFieldBytes = 64 * 1024
    /// The longest line of a line-based format (OFX 1.x, MT940, QIF), in bytes.
    public static let maximumLineBytes = 256 * 1024
}

/// Text rules shared by the readers.
public enum StatementText {
    /// An IBAN or account number as accounts keep it (``Account/normalizedNumber(_:)``); `nil`
    /// for text that is not one.
    public static func accountNumber(_ text: String) -> String? { Account.normalizedNumber(text) }

    /// Whether `text` (normalized) is an IBAN by its shape and ISO 13616 check digits.
    public static func isIBAN(_ text: String) -> Bool { Account.isIBAN(text) }

    /// Parses a statement amount: an optional sign, digits, and an optional decimal separator
    /// `decimal` with any number of decimals, of which those past the second must be zeros
    /// (Tally keeps hundredths and never rounds). No grouping, spaces or exponents. `nil` when
    /// the text is not such an amount or is larger than ``Money/maximumInput``.
    public static func amount(_ text: some StringProtocol, decimal: UInt8 = UInt8(ascii: ".")) -> Money? {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var units: Int64 = 0
        var fraction: Int64 = 0
        var integerDigits = 0
        var fractionDigits = 0
        var seenPoint = false
        for byte in bytes {
            if byte >= 0x30 && byte <= 0x39 {
                let digit = Int64(byte - 0x30)
                if seenPoint {
                    fractionDigits += 1
                    if fractionDigits <= 2 {
                        fraction = fraction * 10 + digit
                    } else if digit != 0 {
                        return nil
                    }
                } else {
                    integerDigits += 1
                    guard units <= Money.maximumInput.cents / 100 else { return nil }
                    units = units * 10 + digit
                }
            } else if byte == decimal && !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
        }
        // "12," is how MT940 writes twelve; ".5" is how some OFX writes a half.
        guard integerDigits > 0 || fractionDigits > 0 else { return nil }
        if fractionDigits == 1 { fraction *= 10 }
        let cents = units * 100 + fraction
        guard cents <= Money.maximumInput.cents else { return nil }
        return Money(cents: negative ? -cents : cents)
    }
}
