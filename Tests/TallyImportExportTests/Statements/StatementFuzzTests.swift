import Foundation
import Testing
import TallyCore
import TallyTestSupport
@testable import TallyImportExport

/// Every statement reader against mutated copies of its fixtures: byte flips, truncations,
/// duplicated and deleted spans, huge repeats. Each read must finish with well-formed events or
/// throw (a `TallyError`, as the readers' typed throws promise); a trap, a hang or a malformed
/// event sequence is a failure. Seeds are fixed, so a failure names an input that reproduces it.
/// `scripts/fuzz` runs the same readers under libFuzzer, coverage-guided, for longer.
@Suite(.ownThreads) struct StatementFuzzTests {
    static var readers: [(reader: any StatementReader.Type, fixtures: [String])] {
        [
            (MT940Reader.self, ["mt940-german.sta", "mt940-swift-two.sta", "mt940-slash.sta", "mt940-writer.sta"]),
            (QIFReader.self, ["qif-csv2ofx.qif", "qif-day-first.qif", "qif-quicken.qif", "qif-ambiguous.qif", "qif-ccard.qif"]),
            (OFXReader.self, ["ofx1-bank.ofx", "ofx1-card.qfx", "ofx1-two-accounts.ofx", "ofx2-bank.ofx", "ofx2-card.ofx", "ofx2-two-accounts.ofx"]),
            (CamtReader.self, ["camt053-v02.xml", "camt053-v04.xml", "camt053-v08.xml"]),
        ]
    }

    static let mutationsPerFixture = 200

    @Test(arguments: 0..<readers.count)
    func mutatedFixtures(reader index: Int) throws {
        let (reader, fixtures) = Self.readers[index]
        var failures = FailureLog()
        var accepted = 0
        var refused = 0
        for (number, name) in fixtures.enumerated() {
            let original = try StatementFixtureFiles.bytes(name)
            var random = FuzzRandom(seed: 0x57A7_0000 &+ UInt64(index) << 8 &+ UInt64(number))
            for mutation in 0..<Self.mutationsPerFixture {
                let bytes = Self.mutate(original, using: &random)
                // Small pieces cut records at buffer edges; on a large input they only cost time.
                let chunk = bytes.count < 4096 && random.chance(0.3) ? Int.random(in: 1...16, using: &random) : .max
                let label = "\(reader) \(name) mutation \(mutation) (\(bytes.count) bytes)"
                let start = threadCPUSeconds()
                let result = statementEvents(reader, .bytes(bytes, chunkSize: chunk))
                // A hang or a blow-up, not speed: a debug build reads ~100 KB in about a second. The
                // thread's own CPU time, not the wall clock, so a machine busy with other work
                // (parallel suites, builds) does not fail it.
                let used = threadCPUSeconds() - start
                failures.check(used < 5, "\(label): took \(used) s of CPU")
                switch result {
                case .success(let events):
                    accepted += 1
                    if let problem = Self.malformed(events) { failures.check(false, "\(label): \(problem)") }
                case .failure(let error):
                    refused += 1
                    if case .importFile(let line, let reason, _) = error {
                        failures.check(line.map { $0 >= 1 } ?? true, "\(label): line \(String(describing: line))")
                        failures.check(!reason.isEmpty, "\(label): an empty reason")
                    }
                }
            }
        }
        // Both outcomes must occur, or the mutations have drifted away from the format.
        failures.check(accepted > 0 && refused > 0, "\(reader): \(accepted) accepted, \(refused) refused")
        failures.report()
    }

    /// One to three edits of the kinds that break parsers.
    static func mutate(_ input: [UInt8], using random: inout FuzzRandom) -> [UInt8] {
        var bytes = input
        let tokens: [[UInt8]] = [
            Array(":61:".utf8), Array(":86:".utf8), Array(":62F:".utf8), Array(":20:".utf8), Array("{4:".utf8), Array("-}".utf8),
            Array("?20".utf8), Array("/NAME/".utf8), Array("!Type:Bank".utf8), Array("^".utf8), Array("D".utf8), Array("'".utf8),
            [0x0A], [0x0D], [0x00], [0xC3], [0xFF], Array(",".utf8), Array(".".utf8), Array("99999999999".utf8),
        ]
        // Inputs stay under about 400 KB: past the limits, yet quick in a debug build.
        for _ in 0..<Int.random(in: 1...3, using: &random) where bytes.count < 100_000 {
            let index = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            let end = min(bytes.count, index + Int.random(in: 1...32, using: &random))
            switch Int.random(in: 0..<20, using: &random) {
            case 0...4: if !bytes.isEmpty { bytes[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random) }
            case 5...7: bytes.insert(contentsOf: random.pick(tokens), at: index)
            case 8...9: bytes.removeSubrange(index..<end)
            case 10...11: bytes.insert(contentsOf: Array(bytes[index..<end]), at: index)
            case 12...13: bytes.removeSubrange(index...)
            case 14...15: if !bytes.isEmpty { bytes[index] = UInt8.random(in: 0...255, using: &random) }
            case 16...17:
                // A line repeated: many entries, or a long field over many lines.
                let lineStart = bytes[..<index].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                let lineEnd = bytes[index...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
                let line = Array(bytes[lineStart..<lineEnd].prefix(200))
                let copies = Array(repeating: line, count: Int.random(in: 2...200, using: &random)).joined()
                bytes.insert(contentsOf: copies, at: lineEnd)
            default:
                // A huge repeat of a span: past the line and field limits.
                let span = Array(bytes[index..<end].filter { $0 != 0x0A })
                guard !span.isEmpty else { continue }
                let target = random.pick([70_000, 300_000])
                var repeated = span
                while repeated.count < target { repeated += repeated }
                bytes.insert(contentsOf: repeated, at: index)
            }
        }
        return bytes
    }

    /// What is wrong with a reader's events, if anything: each statement is `begin`, entries,
    /// `end`, numbered from 1; entries have a name and a line.
    static func malformed(_ events: [StatementEvent]) -> String? {
        var open = false
        var expectedIndex = 1
        for event in events {
            switch event {
            case .begin(_, let index, _):
                if open { return "a begin inside a statement" }
                if index != expectedIndex { return "statement \(index) where \(expectedIndex) was due" }
                open = true
                expectedIndex += 1
            case .entry(let entry):
                if !open { return "an entry outside a statement" }
                if entry.name.isEmpty { return "an entry without a name on line \(entry.line)" }
                if entry.line < 1 { return "an entry on line \(entry.line)" }
                if entry.name.utf8.count > StatementLimits.maximumFieldBytes || entry.memo.utf8.count > StatementLimits.maximumFieldBytes {
                    return "an entry past the field limit"
                }
            case .end:
                if !open { return "an end outside a statement" }
                open = false
            }
        }
        return open ? "a statement without its end" : nil
    }
}
