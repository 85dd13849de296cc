import TallyCore

// MARK: - `tally serve`'s tokens, outside the history

extension InMemoryStore: ServeTokenStore {
    public func serveTokens() throws(TallyError) -> [ServeToken] {
        try transaction(recording: false) { state in state.serveTokens.sorted { $0.name < $1.name } }
    }

    public func saveServeToken(_ token: ServeToken) throws(TallyError) {
        try transaction(recording: false) { state in state.serveTokens.append(token) }
    }

    public func removeServeToken(named name: String) throws(TallyError) -> Bool {
        try transaction(recording: false) { state in
            let before = state.serveTokens.count
            state.serveTokens.removeAll { $0.name == name }
            return state.serveTokens.count != before
        }
    }

    public func useServeTokenLink(hash: String) throws(TallyError) -> Bool {
        try transaction(recording: false) { state in
            guard let index = state.serveTokens.firstIndex(where: { $0.hash == hash && !$0.linkUsed }) else { return false }
            state.serveTokens[index].linkUsed = true
            return true
        }
    }
}
