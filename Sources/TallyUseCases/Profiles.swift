import TallyCore

/// `profile list`.
public struct ListProfiles: Sendable {
    public init() {}

    public func run(in ledger: Ledger) throws(TallyError) -> [ImportProfile] {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.profiles() }
    }
}

/// `profile show NAME`: found ignoring case and diacritics.
public struct ShowProfile: Sendable {
    public var name: String

    public init(name: String) {
        self.name = name
    }

    public func run(in ledger: Ledger) throws(TallyError) -> ImportProfile {
        let key = NameKey.lookup(name)
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            guard let profile = try store.profiles().first(where: { $0.nameKey == key }) else { throw .profileNotFound(name) }
            return profile
        }
    }
}

/// `profile remove NAME`.
public struct RemoveProfile: Sendable {
    public var name: String

    public init(name: String) {
        self.name = name
    }

    public func run(in ledger: Ledger) throws(TallyError) {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.removeProfile(named: name) }
    }
}
