import Testing
import TallyCore
@testable import TallyImportExport

struct Row: Equatable, CustomStringConvertible {
    var line: Int
    var fields: [String]
    var description: String { "\(line): \(fields)" }
}

func read(_ bytes: [UInt8], chunkSize: Int = .max, bufferSize: Int = 1 << 20) throws(CSVError) -> [Row] {
    let reader = CSVReader(source: MemorySource(bytes, chunkSize: chunkSize), bufferSize: bufferSize)
    return try reader.allRecords().map { Row(line: $0.line, fields: $0.fields) }
}

func read(_ text: String, chunkSize: Int = .max, bufferSize: Int = 1 << 20) throws(CSVError) -> [Row] {
    try read(Array(text.utf8), chunkSize: chunkSize, bufferSize: bufferSize)
}

func readResult(_ bytes: [UInt8], chunkSize: Int = .max, bufferSize: Int = 1 << 20) -> Result<[Row], CSVError> {
    do throws(CSVError) { return .success(try read(bytes, chunkSize: chunkSize, bufferSize: bufferSize)) } catch { return .failure(error) }
}

struct CSVReaderTests {
    @Test func plainRecords() throws {
        #expect(try read("a,b,c\n1,2,3\n") == [Row(line: 1, fields: ["a", "b", "c"]), Row(line: 2, fields: ["1", "2", "3"])])
    }

    @Test func lastRecordWithoutNewline() throws {
        #expect(try read("a,b\n1,2") == [Row(line: 1, fields: ["a", "b"]), Row(line: 2, fields: ["1", "2"])])
    }

    @Test func emptyInputHasNoRecords() throws {
        #expect(try read("").isEmpty)
        #expect(try read([0xEF, 0xBB, 0xBF]).isEmpty)
    }

    @Test func quotedDelimitersQuotesAndNewlines() throws {
        let text = "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\rlf\r\nend\"\n"
        #expect(try read(text) == [Row(line: 1, fields: ["a,b", "say \"hi\"", "two\nlines", "cr\rlf\r\nend"])])
    }

    @Test func emptyFields() throws {
        #expect(try read(",,\n\"\",x,\n") == [Row(line: 1, fields: ["", "", ""]), Row(line: 2, fields: ["", "x", ""])])
        #expect(try read("a,") == [Row(line: 1, fields: ["a", ""])])
        #expect(try read("a,\"\"") == [Row(line: 1, fields: ["a", ""])])
    }

    @Test func blankLineIsOneEmptyField() throws {
        let reader = CSVReader(source: MemorySource("a\n\nb\n"))
        var blanks: [Bool] = []
        while let record = try reader.next() { blanks.append(record.isBlank) }
        #expect(blanks == [false, true, false])
    }

    @Test func crlfAndByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("date,name\r\n2024-01-02,\"x\r\ny\"\r\nlast,row".utf8)
        #expect(
            try read(bytes) == [
                Row(line: 1, fields: ["date", "name"]), Row(line: 2, fields: ["2024-01-02", "x\r\ny"]),
                Row(line: 4, fields: ["last", "row"]),
            ])
    }

    @Test func byteOrderMarkOnlyAtTheStart() throws {
        #expect(try read([0x61, 0x0A, 0xEF, 0xBB, 0xBF, 0x62]) == [Row(line: 1, fields: ["a"]), Row(line: 2, fields: ["\u{FEFF}b"])])
    }

    @Test func lineNumbersCountLineBreaksInsideQuotes() throws {
        let text = "h\n\"one\ntwo\nthree\"\nnext\n\"lone\rcr\"\nafter\n"
        #expect(try read(text).map(\.line) == [1, 2, 5, 6, 8])
    }

    @Test func unterminatedQuoteNamesTheLineWhereItOpened() {
        #expect(throws: CSVError.unterminatedQuote(line: 3)) { try read("a\nb\n\"open\nstill\nopen") }
    }

    @Test func quoteInsideAnUnquotedField() {
        #expect(throws: CSVError.unexpectedQuote(line: 2)) { try read("a\nab\"c\n") }
    }

    @Test func textAfterClosingQuote() {
        #expect(throws: CSVError.textAfterClosingQuote(line: 1)) { try read("\"ab\"c,d\n") }
        #expect(throws: CSVError.textAfterClosingQuote(line: 3)) { try read("\"a\nb\n\" x\n") }
    }

    @Test func bareCarriageReturnOutsideQuotes() {
        #expect(throws: CSVError.bareCarriageReturn(line: 1)) { try read("a\rb\n") }
        #expect(throws: CSVError.bareCarriageReturn(line: 2)) { try read("x\na\r") }
    }

    @Test func invalidUTF8NamesItsLine() {
        #expect(throws: CSVError.invalidUTF8(line: 3)) { try read([0x61, 0x0A, 0x22, 0x62, 0x0A, 0xC3, 0x28, 0x22, 0x0A]) }
        #expect(throws: CSVError.invalidUTF8(line: 1)) { try read([0xED, 0xA0, 0x80]) }
        #expect(throws: CSVError.invalidUTF8(line: 1)) { try read([0xC0, 0xAF]) }
        #expect(throws: CSVError.invalidUTF8(line: 1)) { try read([0xF4, 0x90, 0x80, 0x80]) }
        #expect(throws: CSVError.invalidUTF8(line: 1)) { try read([0xE2, 0x82]) }
    }

    @Test func validMultibyteText() throws {
        #expect(try read("Café,€,😀,日本\n") == [Row(line: 1, fields: ["Café", "€", "😀", "日本"])])
    }

    @Test func semicolonDelimiter() throws {
        let reader = CSVReader(source: MemorySource("a;\"b;c\";d,e\n"), delimiter: .semicolon)
        #expect(try reader.allRecords().map(\.fields) == [["a", "b;c", "d,e"]])
    }

    @Test func recordLargerThanTheBufferGrowsIt() throws {
        let long = String(repeating: "x", count: 10_000)
        #expect(try read("a,\"\(long)\"\nb\n", bufferSize: 4) == [Row(line: 1, fields: ["a", long]), Row(line: 2, fields: ["b"])])
    }

    @Test func recordTooLarge() {
        let reader = CSVReader(source: MemorySource(String(repeating: "x", count: 100)), bufferSize: 8, maximumRecordSize: 32)
        #expect(throws: CSVError.recordTooLarge(line: 1, maximumBytes: 32)) { try reader.allRecords() }
    }

    /// Records cut at every possible place must read exactly as when read whole.
    @Test(arguments: [1, 2, 3, 5, 7, 13])
    func smallChunksGiveTheSameRecords(chunkSize: Int) throws {
        let text =
            "\u{FEFF}date,name,amount\r\n2024-01-02,\"Café, \"\"bio\"\"\",12.50\r\n\"multi\r\nline\nfield\",,\n"
            + "x,\"\",\"\"\"\"\nlast,\"q\",end"
        let whole = try read(text)
        #expect(whole.count == 5)
        for bufferSize in [4, 5, 7, 8, 16, 64] {
            #expect(try read(text, chunkSize: chunkSize, bufferSize: bufferSize) == whole)
        }
    }

    @Test func errorsAreTheSameInSmallChunks() {
        for input in ["a\n\"b\nc", "a\nb\"c\n", "\"a\"b", "a\rb", "x\n\n\"é\"\u{0}\"\n"] {
            let whole = readResult(Array(input.utf8))
            for chunk in [1, 2, 3, 7] {
                let pieces = readResult(Array(input.utf8), chunkSize: chunk, bufferSize: 4)
                #expect("\(pieces)" == "\(whole)", "input \(input.debugDescription), chunk \(chunk)")
            }
        }
    }

    /// Random bytes weighted towards CSV's special characters: the reader either yields records
    /// or throws a CSVError, never crashes, and chunking never changes the outcome.
    @Test func randomInputsNeverCrash() {
        var generator = SeededGenerator(seed: 0x7A11_7E57)
        let alphabet: [UInt8] = [0x2C, 0x22, 0x0A, 0x0D, 0x61, 0x62, 0x20, 0xEF, 0xBB, 0xBF, 0xC3, 0xA9, 0xFF, 0x80, 0xE2]
        var outcomes = (records: 0, errors: 0)
        for _ in 0..<10_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            let whole = readResult(bytes)
            let chunk = Int.random(in: 1...9, using: &generator)
            let pieces = readResult(bytes, chunkSize: chunk, bufferSize: Int.random(in: 4...12, using: &generator))
            #expect("\(whole)" == "\(pieces)", "bytes \(bytes)")
            switch whole {
            case .success: outcomes.records += 1
            case .failure: outcomes.errors += 1
            }
        }
        #expect(outcomes.records > 0 && outcomes.errors > 0)
    }
}
