import Foundation

/// Runs an import's `rows` on a helper thread and hands its validated rows, with their name
/// keys, to `write` on the calling thread, which alone touches the store.
///
/// Reading, mapping and validating a row costs about as much as writing it, and the machines
/// Tally runs on have at least two cores: run side by side, an import takes the longer of the
/// two instead of their sum. The queue between them is bounded (64 chunks of 256 rows), so
/// memory stays flat for any file size; an error on either side stops both, and the whole
/// import is rolled back by the caller's transaction.
enum RowPipeline {
    private static let chunkSize = 256
    private static let capacity = 64
    /// The name key cache stops growing at this size (it is never emptied): a file repeats a few
    /// hundred payees, which all fit, while a bank file whose every name is distinct (a reference
    /// number in each) would only fill it with copies of names it never meets again.
    private static let cacheLimit = 4_096

    static func run(
        _ rows: (_ insert: ImportInsert) throws(TallyError) -> String?,
        write: (_ row: ImportRow) throws(TallyError) -> Void
    ) throws(TallyError) -> String? {
        // `withoutActuallyEscaping` throws untyped errors; the outcome comes out as a value.
        let outcome = withoutActuallyEscaping(rows) { rows -> Result<String?, TallyError> in
            let producer = Producer(rows: rows, queue: ChunkQueue(capacity: capacity), chunkSize: chunkSize)
            let thread = Thread { producer.run() }
            thread.stackSize = 8 << 20
            thread.start()
            // Whatever happens here, the helper thread is stopped and joined before `rows` goes away.
            defer { producer.stop() }
            return Result { () throws(TallyError) -> String? in
                while let chunk = producer.queue.pop() {
                    for row in chunk { try write(row) }
                }
                return try producer.outcome().get()
            }
        }
        return try outcome.get()
    }

    /// The helper thread's side. `@unchecked Sendable`: `rows` is only called on the helper
    /// thread, and `result` is only read after `finished` has been signalled.
    private final class Producer: @unchecked Sendable {
        let queue: ChunkQueue<ImportRow>
        /// Dropped before `finished` is signalled: `withoutActuallyEscaping` traps if it outlives the call.
        private var rows: ((_ insert: ImportInsert) throws(TallyError) -> String?)?
        private let chunkSize: Int
        private var result: Result<String?, TallyError> = .success(nil)
        private let finished = DispatchSemaphore(value: 0)

        init(rows: @escaping (_ insert: ImportInsert) throws(TallyError) -> String?, queue: ChunkQueue<ImportRow>, chunkSize: Int) {
            self.rows = rows
            self.queue = queue
            self.chunkSize = chunkSize
        }

        func run() {
            if let rows { result = produce(rows) }
            rows = nil
            queue.close()
            finished.signal()
        }

        private func produce(_ rows: (_ insert: ImportInsert) throws(TallyError) -> String?) -> Result<String?, TallyError> {
            var chunk: [ImportRow] = []
            chunk.reserveCapacity(chunkSize)
            let chunkSize = chunkSize
            let queue = queue
            // Files repeat the same few names; each is folded once.
            var nameKeys: [String: String] = [:]
            return Result { () throws(TallyError) -> String? in
                let fingerprint = try rows { (expense: Expense, budgetName: String) throws(TallyError) in
                    let expense = try expense.validated()
                    _ = try expense.total()
                    let nameKey: String
                    if let cached = nameKeys[expense.name] {
                        nameKey = cached
                    } else {
                        nameKey = expense.nameKey
                        if nameKeys.count < RowPipeline.cacheLimit { nameKeys[expense.name] = nameKey }
                    }
                    chunk.append(ImportRow(expense: expense, budgetName: budgetName, nameKey: nameKey))
                    guard chunk.count == chunkSize else { return }
                    try queue.push(chunk)
                    chunk = []
                    chunk.reserveCapacity(chunkSize)
                }
                if !chunk.isEmpty { try queue.push(chunk) }
                return fingerprint
            }
        }

        /// Stops the helper thread if it is still running and waits for it.
        func stop() {
            queue.cancel()
            finished.wait()
            finished.signal()
        }

        /// What `rows` returned or threw; call once the queue is drained.
        func outcome() -> Result<String?, TallyError> {
            finished.wait()
            finished.signal()
            return result
        }
    }
}

/// A validated row of an import, ready to be written.
struct ImportRow {
    var expense: Expense
    var budgetName: String
    var nameKey: String
}

/// A bounded first-in first-out queue of chunks between one producer and one consumer.
private final class ChunkQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [[Element]] = []
    private var head = 0
    private var closed = false
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits while the queue is full; throws once the consumer has given up.
    func push(_ chunk: [Element]) throws(TallyError) {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count - head >= capacity, !cancelled { condition.wait() }
        guard !cancelled else { throw .storage("the import was stopped") }
        chunks.append(chunk)
        condition.broadcast()
    }

    /// The next chunk, waiting for one; `nil` once the producer has closed the queue and it is empty.
    func pop() -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while head == chunks.count, !closed { condition.wait() }
        guard head < chunks.count else { return nil }
        let chunk = chunks[head]
        chunks[head] = []
        head += 1
        if head >= capacity {
            chunks.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return chunk
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
