import Foundation
import Logging
import NIOCore
import PostgresNIO
import TallyCore

extension PostgresSession {
    /// `COPY table (columns) FROM STDIN` with `rows` in COPY's text format (``CopyRows``): what
    /// `psql \copy` sends, which the server loads without parsing and planning a statement per
    /// batch of rows. It returns once the rows are handed over, and the next statement waits for
    /// the COPY to end (``finishCopy()``): an import reads and checks its next batch while the
    /// server stores this one, so the two cores work at once. An error of the COPY is thrown by
    /// that next statement, or at the end of the transaction, which then rolls back.
    ///
    /// postgres-nio offers COPY only as an async function. It runs here as a task whose jobs run
    /// on the connection's event loop (``EventLoopTaskExecutor``), never on the cooperative pool,
    /// so that blocking a caller on it (a test may call from that pool) cannot starve it; and like
    /// every statement (see ``query(_:_:)``) it fails when the connection closes instead of
    /// waiting forever for a reply.
    func copy(into table: String, columns: [String], _ rows: CopyRows) throws(TallyError) {
        lock.lock()
        defer { lock.unlock() }
        try finishCopy()
        let connection = self.connection
        let logger = self.logger
        let data = rows.buffer
        let done = connection.eventLoop.makePromise(of: Void.self)
        connection.closeFuture.whenComplete { _ in done.fail(ChannelError.ioOnClosedChannel) }
        Task(executorPreference: EventLoopTaskExecutor(connection.eventLoop)) {
            do {
                // postgres-nio writes the COPY with no write promise: on a channel closed already
                // (the server stopped after the last statement) its continuation would be dropped
                // unresumed, and Swift prints a warning about it to stderr. The task runs on the
                // event loop, so nothing can close the channel between this check and that write.
                guard !connection.isClosed else { throw ChannelError.ioOnClosedChannel }
                try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in try await writer.write(data) }
                done.succeed(())
            } catch {
                done.fail(error)
            }
        }
        copying = done.futureResult
    }

    /// Waits for the COPY still running, if any, and throws its error.
    func finishCopy() throws(TallyError) {
        guard let running = copying else { return }
        copying = nil
        do {
            try running.wait()
        } catch {
            throw location.failure(error)
        }
    }
}

/// Runs a task's jobs on a NIO event loop.
final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Rows in the text format of `COPY … FROM STDIN`: fields separated by tabs, rows ended by a
/// newline, a backslash escaping itself, tab, newline and carriage return. Bytes go into an array
/// and reach NIO as one buffer: ByteBuffer's writes check capacity and uniqueness each time, a
/// tenth of an import's time when called per field.
struct CopyRows {
    private var bytes: [UInt8] = []
    /// Each distinct tag list as its field: composing (NFC) every tag of every row was a fifth of
    /// an import's time, and a ledger has few distinct lists.
    private var tagFields: [[String]: [UInt8]] = [:]

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    var buffer: ByteBuffer { ByteBuffer(bytes: bytes) }

    mutating func append(_ number: Int64) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
        bytes.append(UInt8(ascii: "\t"))
    }

    /// `NULL`, as COPY's text format spells it.
    mutating func appendNull() {
        bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N"), UInt8(ascii: "\t")])
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            // Most names need no escape: one copy of their bytes.
            if !utf8.contains(where: Self.needsEscape) {
                bytes.append(contentsOf: utf8)
            } else {
                for byte in utf8 { write(escaping: byte) }
            }
        }
        bytes.append(UInt8(ascii: "\t"))
    }

    /// A TEXT[] of composed (NFC) texts as an array literal, each element quoted: `{"a","b"}`.
    /// Inside the quotes the array syntax escapes `"` and `\` with a backslash, which COPY's
    /// escaping then doubles.
    mutating func append(tags: [String]) {
        if let field = tagFields[tags] {
            bytes.append(contentsOf: field)
            return
        }
        let start = bytes.count
        bytes.append(UInt8(ascii: "{"))
        for (index, text) in tags.map(\.precomposedStringWithCanonicalMapping).sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")]) }
                write(escaping: byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\t"))
        tagFields[tags] = Array(bytes[start...])
    }

    /// Ends a row: its last field's tab becomes the newline.
    mutating func endRow() {
        bytes[bytes.count - 1] = UInt8(ascii: "\n")
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private mutating func write(escaping byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        default: bytes.append(byte)
        }
    }
}
