import CLibXML2
import TallyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The XML statement formats (camt.053, OFX 2) are read through libxml2's `xmlTextReader`, not
// Foundation's `XMLParser`: on a 60 MB camt file XMLParser took about 2 s where
// `xmllint --stream` takes 0.4 s, and on Linux it reports success on a document with an
// external entity and on a truncated one. libxml2 is opened on first use (see CLibXML2/shim.h).

/// One step through an XML document, as the statement readers see it.
enum XMLEvent: Equatable {
    /// An element starts; `name` is its local name, without any namespace prefix.
    case start(name: String, namespace: String, line: Int)
    case end(name: String)
    /// Text or CDATA directly inside the current element; whitespace between elements is left out.
    case text(String, line: Int)
}

/// Pulls a document's elements and text one at a time, in bounded memory. Refuses a DOCTYPE
/// (so no entity is ever declared, let alone expanded), malformed or truncated XML, and text
/// longer than ``StatementLimits/maximumFieldBytes``.
final class XMLPullReader {
    private let xml: TallyXML
    private let reader: xmlTextReaderPtr
    private let input: XMLInput
    private let error: UnsafeMutablePointer<TallyXMLError>
    /// The end of an empty element (`<Cd/>`), handed out after its start.
    private var pendingEnd: String?
    private var finished = false
    /// Element names by libxml2's pointer: its reader interns every name in a dictionary that
    /// lives as long as the reader, so a pointer seen before is the same name. A direct-mapped
    /// table of the last names seen: hashing the pointer into a Swift dictionary cost about as
    /// much as making the string again.
    private var names = [(pointer: UnsafePointer<xmlChar>?, name: String)](repeating: (nil, ""), count: 512)
    private var namespaces = true

    convenience init(_ input: ImportInput) throws(TallyError) {
        try self.init(source: try input.open())
    }

    init(source: any ByteSource) throws(TallyError) {
        let functions = try LibXML2.functions()
        let box = XMLInput(source)
        let record = UnsafeMutablePointer<TallyXMLError>.allocate(capacity: 1)
        record.initialize(to: TallyXMLError())
        let context = Unmanaged.passUnretained(box).toOpaque()
        let started = withUnsafePointer(to: functions) { table in
            tally_xml_reader(table, { context, buffer, length in XMLPullReader.read(context, buffer, length) }, context, record)
        }
        guard let started else {
            record.deallocate()
            // libxml2 reads the first bytes as it starts; the source may have failed there.
            throw box.failure ?? .importFile(line: nil, reason: "cannot start reading the XML")
        }
        xml = functions
        input = box
        error = record
        reader = started
    }

    deinit {
        xml.xmlFreeTextReader(reader)
        error.deallocate()
    }

    /// libxml2 asks for bytes here; a failure of the source is kept for `next()` to throw.
    private static func read(_ context: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ length: Int32) -> Int32 {
        guard let context, let buffer, length > 0 else { return -1 }
        let box = Unmanaged<XMLInput>.fromOpaque(context).takeUnretainedValue()
        return Int32(box.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))))
    }

    /// The next element start, end or text; `nil` once the document has ended well.
    func next() throws(TallyError) -> XMLEvent? {
        if let name = pendingEnd {
            pendingEnd = nil
            return .end(name: name)
        }
        while !finished {
            let status = xml.xmlTextReaderRead(reader)
            try check(status)
            if status == 0 {
                finished = true
                return nil
            }
            switch xml.xmlTextReaderNodeType(reader) {
            case Int32(TALLY_XML_READER_ELEMENT):
                let name = self.name(xml.xmlTextReaderConstLocalName(reader))
                if xml.xmlTextReaderIsEmptyElement(reader) == 1 { pendingEnd = name }
                // Only the root's namespace says which document this is.
                let namespace = namespaces ? string(xml.xmlTextReaderConstNamespaceUri(reader)) : ""
                namespaces = false
                return .start(name: name, namespace: namespace, line: line)
            case Int32(TALLY_XML_READER_END_ELEMENT):
                return .end(name: self.name(xml.xmlTextReaderConstLocalName(reader)))
            case Int32(TALLY_XML_READER_TEXT), Int32(TALLY_XML_READER_CDATA):
                guard let value = xml.xmlTextReaderConstValue(reader) else { continue }
                let length = strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
                guard length <= StatementLimits.maximumFieldBytes else {
                    throw .importFile(line: line, reason: "a text is longer than \(StatementLimits.maximumFieldBytes / 1024) KiB")
                }
                return .text(string(value), line: line)
            case Int32(TALLY_XML_READER_DOCUMENT_TYPE), Int32(TALLY_XML_READER_ENTITY_REFERENCE), Int32(TALLY_XML_READER_ENTITY):
                // Refused before any entity it declares can be used: no statement format has one.
                throw .importFile(line: line, reason: "the XML has a DOCTYPE, which no bank statement has")
            default:
                continue  // comments, processing instructions, whitespace between elements
            }
        }
        return nil
    }

    /// The attribute `name` of the element `next()` just started (camt's `Ccy` of an `Amt`), or
    /// `nil` when it has none. Held to ``StatementLimits/maximumFieldBytes`` as text is.
    func attribute(_ name: String) throws(TallyError) -> String? {
        guard xml.xmlTextReaderMoveToAttribute(reader, name) == 1 else { return nil }
        defer { _ = xml.xmlTextReaderMoveToElement(reader) }
        guard let value = xml.xmlTextReaderConstValue(reader) else { return nil }
        guard strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)) <= StatementLimits.maximumFieldBytes else {
            throw .importFile(line: line, reason: "an attribute is longer than \(StatementLimits.maximumFieldBytes / 1024) KiB")
        }
        return string(value)
    }

    /// Throws what went wrong in the last read: the source's failure, else libxml2's first error.
    private func check(_ status: Int32) throws(TallyError) {
        if let failure = input.failure { throw failure }
        let record = error.pointee
        guard record.failed != 0 || status < 0 else { return }
        finished = true
        guard input.byteCount > 0 else { throw .importFile(line: nil, reason: "the file is empty") }
        let message = withUnsafeBytes(of: record.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let parserLine = Int(xml.xmlTextReaderGetParserLineNumber(reader))
        let line = record.line > 0 ? Int(record.line) : parserLine > 0 ? parserLine : nil
        let atEnd = input.reachedEnd && (line ?? 0) >= input.lineCount
        throw .importFile(line: line, reason: Self.reason(libxml2: message, atEnd: atEnd))
    }

    /// libxml2's message as one line in Tally's words where it has a usual cause.
    private static func reason(libxml2 message: String, atEnd: Bool) -> String {
        let first = StatementFields.trim(message.prefix { $0 != "\n" })
        if first.hasPrefix("Input is not proper UTF-8") {
            return "the text is not valid UTF-8, nor in the encoding the XML declaration names"
        }
        if first.hasSuffix("huge text node") { return "a text is longer than 10 MB" }
        // libxml2 2.9 says "Extra content at the end of the document" of most truncations.
        let detail = first.isEmpty || first.hasPrefix("Extra content") ? "" : " (\(first))"
        return atEnd ? "the XML ends before its last element closes: it is truncated\(detail)" : "malformed XML\(detail)"
    }

    /// The line of the current node, else where the parser stands.
    private var line: Int {
        if let node = xml.xmlTextReaderCurrentNode(reader) {
            let line = xml.xmlGetLineNo(node)
            if line > 0 { return line }
        }
        return Int(xml.xmlTextReaderGetParserLineNumber(reader))
    }

    private func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: pointer) >> 3) & (names.count - 1)
        if names[slot].pointer == pointer { return names[slot].name }
        let name = String(cString: pointer)
        names[slot] = (pointer, name)
        return name
    }

    private func string(_ text: UnsafePointer<xmlChar>?) -> String {
        guard let text else { return "" }
        return String(cString: text)
    }
}

/// libxml2's functions, looked up once, when the first XML statement is read.
enum LibXML2 {
    static func functions() throws(TallyError) -> TallyXML { try loaded.get() }

    private static let loaded = load(name: "libxml2.so.2", fallback: "libxml2.so")

    private static func load(name: String, fallback: String) -> Result<TallyXML, TallyError> {
        let table = UnsafeMutablePointer<TallyXML>.allocate(capacity: 1)
        defer { table.deallocate() }
        if let failure = tally_xml_load(table, name, fallback) {
            return .failure(.importFile(
                line: nil, reason: "cannot load libxml2 to read the statement (on Debian: apt-get install libxml2): \(String(cString: failure))"))
        }
        return .success(table.pointee)
    }
}
