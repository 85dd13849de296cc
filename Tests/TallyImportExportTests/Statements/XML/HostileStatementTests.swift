import Foundation
import TallyTestSupport
import Testing
import TallyCore
@testable import TallyImportExport

/// Files made to hurt a reader: each must be refused with an import error, quickly, in
/// bounded memory, and never crash or hang.
struct HostileStatementTests {
    private static let camtStart = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
        """

    @Test func externalEntityIsRefused() throws {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE Document [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Id>&x;</Id>
            </Stmt></BkToCstmrStmt></Document>
            """
        let failed = try #require(failure(CamtReader.self, text))
        #expect(failed.reason.contains("DOCTYPE"))
        #expect(!failed.reason.contains("root:"))
        let ofx = """
            <?xml version="1.0"?>
            <!DOCTYPE OFX [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <?OFX OFXHEADER="200" VERSION="220"?>
            <OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>&x;</CURDEF></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
            """
        #expect(failure(OFXReader.self, ofx)?.reason.contains("DOCTYPE") == true)
    }

    @Test(.timeLimit(.minutes(1))) func billionLaughsIsRefused() throws {
        var entities = "<!ENTITY lol \"lol\">"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            entities += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        let text = "<?xml version=\"1.0\"?><!DOCTYPE Document [\(entities)]>"
            + "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\"><BkToCstmrStmt><Stmt><Id>&lol9;</Id></Stmt></BkToCstmrStmt></Document>"
        let started = threadCPUSeconds()
        #expect(failure(CamtReader.self, text)?.reason.contains("DOCTYPE") == true)
        #expect(threadCPUSeconds() - started < 0.5)
    }

    @Test func truncatedXMLIsRefusedWhereverItIsCut() throws {
        for name in ["camt053-v02.xml", "ofx2-bank.ofx"] {
            let bytes = try fixture(name)
            let reader: any StatementReader.Type = name.hasPrefix("camt") ? CamtReader.self : OFXReader.self
            // Every cut before the last end tag's '>', by steps that land everywhere.
            let end = try #require(bytes.lastIndex(of: UInt8(ascii: ">")))
            for cut in stride(from: 0, to: end, by: 37) {
                #expect(failure(reader, Array(bytes[..<cut])) != nil, "\(name) cut at \(cut)")
            }
            for cut in [bytes.count / 2, end - 1] {
                #expect(failure(reader, Array(bytes[..<cut]))?.reason.contains("truncated") == true, "\(name) cut at \(cut)")
            }
        }
    }

    @Test func truncatedSGMLIsRefusedWhereverItIsCut() throws {
        let bytes = try fixture("ofx1-bank.ofx")
        let end = try #require(bytes.lastIndex(of: UInt8(ascii: ">")))
        for cut in stride(from: 0, to: end, by: 11) {
            #expect(failure(OFXReader.self, Array(bytes[..<cut])) != nil, "cut at \(cut)")
        }
    }

    @Test func badUTF8IsRefused() throws {
        var camt = try fixture("camt053-v08.xml")
        let name = try #require(camt.firstRange(of: Array("Jan de Vries".utf8)))
        camt[name.lowerBound] = 0xFF
        #expect(failure(CamtReader.self, camt).map { ($0.line, $0.reason) } ?? (nil, "") == (46, "the text is not valid UTF-8, nor in the encoding the XML declaration names"))
        // Latin-1 bytes in a document that says it is UTF-8.
        var ofx = try fixture("ofx2-bank.ofx")
        let cafe = try #require(ofx.firstRange(of: Array("Café".utf8)))
        ofx.replaceSubrange(cafe, with: [0x43, 0x61, 0x66, 0xE9])
        #expect(failure(OFXReader.self, ofx) != nil)
    }

    @Test func malformedSGMLIsRefused() throws {
        let start = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:NONE\n\n"
        let cases: [(String, String)] = [
            ("<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST><STMTTRN><TRNAMT>1</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>",
             "</BANKTRANLIST> closes while <STMTTRN> inside it is still open"),
            ("<OFX><BANKMSGSRSV1></STMTRS></BANKMSGSRSV1></OFX>", "</STMTRS> closes an aggregate that was never opened"),
            ("<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</STMTRS>", "the file ends inside <STMTTRNRS>: it is truncated"),
            ("<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST>words<STMTTRN>", "text 'words' is directly inside <BANKTRANLIST>"),
            ("<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</CURDEF>stray</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>",
             "text 'stray' is directly inside <STMTRS>"),
            ("<OFX></OFX><OFX></OFX>", "<OFX> comes after </OFX>"),
            ("<OFX></OFX>", "no bank or credit card statement"),
        ]
        for (body, reason) in cases {
            let failed = failure(OFXReader.self, start + body)
            #expect(failed?.reason.contains(reason) == true, "\(body): \(failed?.reason ?? "read")")
        }
        #expect(failure(OFXReader.self, "OFXHEADER:100\nDATA:OFXSGML\n<OFX") != nil)
        #expect(failure(OFXReader.self, "OFXHEADER:200\nDATA:OFXSGML\n\n<OFX></OFX>") != nil)
        #expect(failure(OFXReader.self, "") != nil)
    }

    @Test func hugeNameFailsFast() throws {
        let huge = [UInt8](repeating: UInt8(ascii: "A"), count: 10 * 1024 * 1024)
        let camt = Array((Self.camtStart + "<BkToCstmrStmt><Stmt><Id>S</Id><Ntry><NtryDtls><TxDtls><RltdPties><Cdtr><Nm>").utf8) + huge
            + Array("</Nm></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>".utf8)
        let sgml = Array("OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST><STMTTRN><NAME>".utf8) + huge
        let ofx2 = Array("<?xml version=\"1.0\"?><OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST><STMTTRN><NAME>".utf8) + huge
            + Array("</NAME></STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>".utf8)
        let cases: [(any StatementReader.Type, [UInt8], String)] = [
            (CamtReader.self, camt, "longer than 10 MB"), (OFXReader.self, sgml, "longer than 64 KiB"), (OFXReader.self, ofx2, "longer than 10 MB"),
        ]
        for (reader, bytes, reason) in cases {
            let started = threadCPUSeconds()
            #expect(failure(reader, bytes, chunkSize: 1 << 16)?.reason.contains(reason) == true)
            #expect(threadCPUSeconds() - started < 0.5)
        }
    }
}

// Mutated fixtures of every reader, OFX and camt.053 included: StatementFuzzTests.
