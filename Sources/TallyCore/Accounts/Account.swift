import Foundation

/// What an account is: an asset holds money, a liability (`credit`, `loan`) is money owed.
public enum AccountKind: String, Hashable, Sendable, Codable, CaseIterable {
    case checking, savings, credit, cash, loan

    /// Whether its balance is what is owed rather than what is held.
    public var isLiability: Bool { self == .credit || self == .loan }
}

/// Where money sits: a bank account, a card, a wallet or a loan. Names are unique as budget
/// names are, ignoring case and diacritics. Its balance is a figure of its entries
/// (``AccountBook``), never stored.
public struct Account: Identifiable, Hashable, Sendable, Codable {
    public static let maximumNameLength = 100

    /// Assigned by the store; `nil` until the account is saved.
    public var id: Int64?
    public var name: String
    public var kind: AccountKind
    /// The balance at the start of ``openingDate``: held for an asset, owed for a liability.
    /// May be negative (an overdrawn account, a card in credit).
    public var opening: Money
    /// The first day the account counts; entries before it are refused. `nil`: the account
    /// counts every entry, from a balance of ``opening``.
    public var openingDate: Day?
    /// An archived account keeps its history and leaves the lists.
    public var archived: Bool
    /// The bank's IBAN or account number, normalized (``Account/normalizedNumber(_:)``): how a
    /// bank statement that names the account finds it. Unique among the ledger's accounts.
    public var number: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64? = nil, name: String, kind: AccountKind, opening: Money = .zero, openingDate: Day? = nil,
        archived: Bool = false, number: String? = nil, createdAt: Date = Date(), updatedAt: Date? = nil
    ) {
        self.number = number
        self.id = id
        self.name = name
        self.kind = kind
        self.opening = opening
        self.openingDate = openingDate
        self.archived = archived
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// The key under which names are unique: case, diacritics and width folded.
    public var nameKey: String { NameKey.make(name) }

    /// Returns the account with its name trimmed, or throws the first broken rule.
    public func validated() throws(TallyError) -> Account {
        var account = self
        account.name = try NameKey.validated(name, kind: .account, maximumLength: Account.maximumNameLength)
        guard opening.cents.magnitude <= Money.maximumInput.cents.magnitude else { throw .amountOutOfRange(opening.plainString) }
        if let number {
            guard let normalized = Account.normalizedNumber(number) else { throw .invalidAccountNumber(number) }
            account.number = normalized
        }
        return account
    }

    /// The longest account number: an IBAN has at most 34 characters.
    public static let maximumNumberLength = 34

    /// An IBAN or account number as accounts keep and compare it: letters in capitals, and the
    /// spaces, dashes, dots and slashes banks print inside it left out. `nil` unless what is left
    /// is 1 to ``maximumNumberLength`` letters and digits.
    public static func normalizedNumber(_ text: String) -> String? {
        var kept: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"): continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"): kept.append(byte)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): kept.append(byte - 0x20)
            default: return nil
            }
            if kept.count > maximumNumberLength { return nil }
        }
        return kept.isEmpty ? nil : String(decoding: kept, as: UTF8.self)
    }

    /// Whether a statement naming the account `number` (normalized) means this account: the
    /// same number, or, when one of the two is an IBAN, the other of at least six characters
    /// ending it, as an IBAN ends with the domestic account number.
    public func isNamed(byNumber number: String) -> Bool {
        guard let own = self.number else { return false }
        if own == number { return true }
        let (short, long) = own.utf8.count < number.utf8.count ? (own, number) : (number, own)
        return short.utf8.count >= 6 && Account.isIBAN(long) && long.hasSuffix(short)
    }

    /// Whether `text` (normalized) is an IBAN: its shape and its ISO 13616 check digits.
    public static func isIBAN(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (15...34).contains(bytes.count), bytes[0...1].allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }),
            bytes[2...3].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return false }
        var remainder = 0
        for byte in bytes[4...] + bytes[0..<4] {
            switch byte {
            case 0x30...0x39: remainder = (remainder * 10 + Int(byte - 0x30)) % 97
            case 0x41...0x5A: remainder = (remainder * 100 + Int(byte - 0x41 + 10)) % 97
            default: return false
            }
        }
        return remainder == 1
    }

    /// Another account (`holder`, by id) may not have this name's key.
    public func checkNameIsFree(heldBy holder: Int64?) throws(TallyError) {
        if let holder, holder != id { throw .duplicateAccount(name) }
    }

    /// No other account of `accounts` may have this account's number.
    public func checkNumberIsFree(among accounts: [Account]) throws(TallyError) {
        guard let number, let holder = accounts.first(where: { $0.number == number && $0.id != id }) else { return }
        throw .duplicateAccountNumber(number, account: holder.name)
    }

    /// The account a user calls `name`, among `accounts`, ignoring case, diacritics and the
    /// white space around it.
    public static func named(_ name: String, in accounts: [Account]) throws(TallyError) -> Account {
        let key = NameKey.lookup(name)
        guard let found = accounts.first(where: { $0.nameKey == key }) else { throw .accountNotFound(name) }
        return found
    }

    /// An entry on `day` belongs to this account only from its opening day on.
    public func checkAccepts(_ day: Day) throws(TallyError) {
        if let openingDate, day < openingDate { throw .entryBeforeOpening(account: name, day: day, opening: openingDate) }
    }
}
