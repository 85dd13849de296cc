import TallyCore

/// Reads OFX (and QFX, which is OFX) bank and credit card statements: 1.x as SGML with its
/// `OFXHEADER:100` header, 2.x as XML. Two tokenizers turn either into the same elements
/// (``OFXToken``) and one interpreter (``OFXInterpreter``) reads the statements from them.
public enum OFXReader: StatementReader {
    public static func read(_ input: ImportInput, _ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError) {
        var source = ReplayingSource(try input.open())
        let start = try source.peek(XMLSniff.window)
        var interpreter = OFXInterpreter()
        if XMLSniff.xmlText(start)?.hasPrefix("<?") == true {
            let xml = try XMLPullReader(source: source)
            var tokens = OFXXMLTokens()
            while let event = try xml.next() {
                try tokens.handle(event) { token throws(TallyError) in try interpreter.handle(token, visit) }
            }
        } else {
            try OFXSGMLTokenizer.read(&source) { token throws(TallyError) in try interpreter.handle(token, visit) }
        }
        try interpreter.finish()
    }

    /// Whether `prefix` (the file's first bytes) looks like OFX: an `OFXHEADER` line, or XML
    /// with an `<?OFX` header or an `<OFX>` element in its first 4 KiB.
    public static func looksLikeOFX(_ prefix: [UInt8]) -> Bool {
        guard let text = XMLSniff.text(prefix)?.uppercased() else { return false }
        if text.hasPrefix("OFXHEADER") { return true }
        return text.hasPrefix("<") && (text.contains("<?OFX") || text.contains("<OFX>"))
    }
}

/// Hands out a source's first bytes, once peeked at, before the rest.
struct ReplayingSource: ByteSource {
    private var base: any ByteSource
    private var buffered: [UInt8] = []
    private var offset = 0

    init(_ base: any ByteSource) {
        self.base = base
    }

    /// Up to `count` first bytes, fewer only when the input is shorter; they are read again.
    mutating func peek(_ count: Int) throws(TallyError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: count)
        while buffered.count < count {
            let wanted = count - buffered.count
            let read = try base.read(into: &chunk, 0..<wanted)
            if read == 0 { break }
            buffered.append(contentsOf: chunk[0..<read])
        }
        return buffered
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(TallyError) -> Int {
        guard offset < buffered.count else { return try base.read(into: buffer) }
        let count = min(buffer.count, buffered.count - offset)
        buffered.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
        }
        offset += count
        if offset == buffered.count {
            buffered = []
            offset = 0
        }
        return count
    }
}

/// One element of an OFX file, however it was written.
enum OFXToken: Equatable {
    /// An aggregate (an element holding elements) opens or closes.
    case open(String, line: Int)
    case close(String, line: Int)
    /// An element holding a value: `<TRNAMT>-12.34`, closed or not.
    case leaf(String, value: String, line: Int)
}

/// Turns the XML reader's events into OFX tokens: an element holding only text is a leaf.
struct OFXXMLTokens {
    private var pending: (name: String, line: Int)?
    private var text = ""

    mutating func handle(_ event: XMLEvent, _ emit: (OFXToken) throws(TallyError) -> Void) throws(TallyError) {
        switch event {
        case .start(let name, _, let line):
            if let pending {
                guard text.isEmpty else { throw .importFile(line: line, reason: "OFX has text directly inside <\(pending.name)>") }
                try emit(.open(pending.name, line: pending.line))
            }
            pending = (name, line)
            text = ""
        case .text(let value, let line):
            guard pending != nil else { throw .importFile(line: line, reason: "OFX has text directly inside an aggregate") }
            text += value
            guard text.utf8.count <= StatementLimits.maximumFieldBytes else {
                throw .importFile(line: line, reason: "a text is longer than \(StatementLimits.maximumFieldBytes / 1024) KiB")
            }
        case .end(let name):
            if let pending, pending.name == name {
                try emit(.leaf(name, value: StatementFields.trim(text), line: pending.line))
            } else {
                if let pending { try emit(.open(pending.name, line: pending.line)) }
                try emit(.close(name, line: pending?.line ?? 0))
            }
            pending = nil
            text = ""
        }
    }
}
