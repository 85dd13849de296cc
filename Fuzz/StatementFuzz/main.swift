import TallyCore
import TallyImportExport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// libFuzzer's entry point for the statement readers. `TALLY_FUZZ_FORMAT` (mt940, qif, ofx,
// camt053) picks the reader; `scripts/fuzz` sets it. A reader may accept or refuse
// the input with a TallyError; anything else (a trap, a hang, a leak past the limits) is a find.

private let format: StatementFormat = {
    let name = getenv("TALLY_FUZZ_FORMAT").map { String(cString: $0) } ?? "mt940"
    return StatementFormat(rawValue: name) ?? .mt940
}()

private func read(_ input: ImportInput, _ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError) {
    switch format {
    case .mt940: try MT940Reader.read(input, visit)
    case .qif: try QIFReader.read(input, visit)
    case .ofx: try OFXReader.read(input, visit)
    case .camt053: try CamtReader.read(input, visit)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Small chunks now and then, so records are cut at buffer edges too.
    let chunk = bytes.first.map { $0 & 1 == 1 ? 7 : Int.max } ?? Int.max
    var events = 0
    do throws(TallyError) {
        try read(.bytes(bytes, chunkSize: chunk)) { (event: StatementEvent) throws(TallyError) in
            events += 1
            if case .entry(let entry) = event, entry.name.isEmpty { trap("an entry with an empty name") }
        }
    } catch {
        _ = error.errorDescription
    }
    return 0
}

private func trap(_ message: StaticString) -> Never {
    // A find for libFuzzer: the message shows in the crash report.
    preconditionFailure("\(message)")
}
