import Foundation
import TallyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a reader's bytes come from: a file descriptor in production, memory in tests.
public protocol ByteSource {
    /// Reads at most `buffer.count` bytes into `buffer`; 0 means the end of the input.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(TallyError) -> Int
}

extension ByteSource {
    /// Reads at most `range.count` bytes into `bytes[range]`; 0 means the end of the input.
    /// `withUnsafeMutableBytes` only rethrows untyped errors, so the typed one is carried out here,
    /// once for every reader.
    public mutating func read(into bytes: inout [UInt8], _ range: Range<Int>) throws(TallyError) -> Int {
        var source = self
        let result: Result<Int, TallyError> = bytes.withUnsafeMutableBytes { raw in
            do throws(TallyError) {
                return .success(try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[range])))
            } catch { return .failure(error) }
        }
        self = source
        return try result.get()
    }
}

/// Reads a file descriptor with `read(2)`, so no more than one buffer is ever in memory.
public struct FileDescriptorSource: ByteSource {
    public let fileDescriptor: Int32

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    public init(fileHandle: FileHandle) {
        self.init(fileDescriptor: fileHandle.fileDescriptor)
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(TallyError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Darwin)
            let count = Darwin.read(fileDescriptor, base, buffer.count)
            #elseif canImport(Musl)
            let count = Musl.read(fileDescriptor, base, buffer.count)
            #else
            let count = Glibc.read(fileDescriptor, base, buffer.count)
            #endif
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .importFile(line: nil, reason: "cannot read the file: \(String(cString: strerror(errno)))")
        }
    }
}

/// Bytes held in memory, handed out at most `chunkSize` at a time so tests can cut records
/// at every possible boundary.
public struct MemorySource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    private let chunkSize: Int

    public init(_ bytes: [UInt8], chunkSize: Int = .max) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    public init(_ text: String, chunkSize: Int = .max) {
        self.init(Array(text.utf8), chunkSize: chunkSize)
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(TallyError) -> Int {
        let count = min(buffer.count, chunkSize, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
        }
        offset += count
        return count
    }
}

/// Passes another source's bytes through unchanged while fingerprinting them. A class, so the
/// digest can be read after a reader has consumed the source.
public final class FingerprintingSource: ByteSource {
    private var base: any ByteSource
    public private(set) var hasher = Fingerprinter()

    public init(_ base: any ByteSource) {
        self.base = base
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TallyError) -> Int {
        let count = try base.read(into: buffer)
        hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        return count
    }
}

/// Counts the bytes another source hands out.
public final class CountingSource: ByteSource {
    private var base: any ByteSource
    public private(set) var byteCount: UInt64 = 0

    public init(_ base: any ByteSource) {
        self.base = base
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TallyError) -> Int {
        let count = try base.read(into: buffer)
        byteCount += UInt64(count)
        return count
    }
}

/// Owns an open file and reads it with `read(2)`; the file closes when the source goes away.
public final class FileSource: ByteSource {
    private let handle: FileHandle
    private var source: FileDescriptorSource

    public init(path: String) throws(TallyError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .importFile(line: nil, reason: "cannot open \(quoted(path))")
        }
        self.handle = handle
        source = FileDescriptorSource(fileHandle: handle)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TallyError) -> Int {
        try source.read(into: buffer)
    }
}

/// Where writers put their bytes.
public protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws(TallyError)
    /// Hands buffered bytes on; writers call it when they finish.
    func flush() throws(TallyError)
}

extension ByteSink {
    public func write(_ bytes: [UInt8]) throws(TallyError) {
        // withUnsafeBytes only rethrows untyped errors, so the typed one is carried out by hand.
        var failure: TallyError?
        bytes.withUnsafeBytes { raw in
            do throws(TallyError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public func write(_ text: String) throws(TallyError) {
        var text = text
        var failure: TallyError?
        text.withUTF8 { bytes in
            do throws(TallyError) { try write(UnsafeRawBufferPointer(bytes)) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

/// Collects everything in memory; for tests and small documents.
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(TallyError) {
        self.bytes.append(contentsOf: bytes)
    }

    public func flush() throws(TallyError) {}
}

/// Writes to a file descriptor through a 256 KiB buffer, so exports make few system calls.
public final class FileDescriptorSink: ByteSink {
    public let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int

    public init(fileDescriptor: Int32, capacity: Int = 256 * 1024) {
        self.fileDescriptor = fileDescriptor
        self.capacity = max(1, capacity)
        buffer.reserveCapacity(self.capacity)
    }

    public convenience init(fileHandle: FileHandle) {
        self.init(fileDescriptor: fileHandle.fileDescriptor)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(TallyError) {
        if buffer.count + bytes.count > capacity { try flush() }
        if bytes.count >= capacity {
            try writeFully(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    public func flush() throws(TallyError) {
        guard !buffer.isEmpty else { return }
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        var failure: TallyError?
        pending.withUnsafeBytes { bytes in
            do throws(TallyError) { try writeFully(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    private func writeFully(_ bytes: UnsafeRawBufferPointer) throws(TallyError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
            let written = Darwin.write(fileDescriptor, base + offset, bytes.count - offset)
            #elseif canImport(Musl)
            let written = Musl.write(fileDescriptor, base + offset, bytes.count - offset)
            #else
            let written = Glibc.write(fileDescriptor, base + offset, bytes.count - offset)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                throw .cannotWrite(path: nil, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }
}
