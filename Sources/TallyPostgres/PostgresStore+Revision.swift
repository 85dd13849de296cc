import TallyCore

extension PostgresStore {
    /// The cluster's snapshot (`xmin:xmax:in-progress ids`), for a reader that keeps an answer
    /// until the data changes (`tally serve`'s report cache). Any commit, by any process, leaves
    /// the snapshot different from every earlier one: it either finishes a transaction the old
    /// snapshot listed as in progress, or one with an id at or past its `xmax`. Equal values
    /// therefore mean nothing was committed in between. Writes to other databases of the
    /// cluster change it too, which only costs a recomputation.
    public func snapshotRevision() throws(TallyError) -> String {
        try read { () throws(TallyError) in
            try session.query("SELECT pg_current_snapshot()::text").first.map { row throws(TallyError) in try row.string(0) } ?? ""
        }
    }
}
