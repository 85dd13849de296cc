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
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64? = nil, name: String, kind: AccountKind, opening: Money = .zero, openingDate: Day? = nil,
        archived: Bool = false, createdAt: Date = Date(), updatedAt: Date? = nil
    ) {
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
        return account
    }

    /// Another account (`holder`, by id) may not have this name's key.
    public func checkNameIsFree(heldBy holder: Int64?) throws(TallyError) {
        if let holder, holder != id { throw .duplicateAccount(name) }
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
