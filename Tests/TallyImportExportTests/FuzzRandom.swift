import Foundation
import TallyTestSupport
import Testing
import TallyCore
@testable import TallyImportExport

// MARK: - Randomness

/// SplitMix64: tiny, fast and the same on every platform, unlike the system generator.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &self)]
    }

    /// Days near the edges: the first years, leap days, and days some months do not have.
    mutating func day() -> (year: Int, month: Int, day: Int) {
        let year = pick([1, 4, 1900, 1999, 2000, 2024, 2025, 2026, 9999])
        let month = Int.random(in: 1...12, using: &self)
        let lengths = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (year, month, Int.random(in: 1...lengths[month - 1], using: &self))
    }

    mutating func soup(_ tokens: [[UInt8]], maxCount: Int) -> [UInt8] {
        (0..<Int.random(in: 0...maxCount, using: &self)).flatMap { _ in pick(tokens) }
    }

    /// The whole input at once most of the time, otherwise in small pieces across buffer edges.
    mutating func chunkSize() -> Int {
        chance(0.5) ? .max : Int.random(in: 1...64, using: &self)
    }

    mutating func bufferSize() -> Int {
        pick([16, 17, 64, 1024, 65_536])
    }

    /// One to four byte edits: insert a token, delete, replace, duplicate or swap a range, truncate.
    mutating func mutateBytes(_ input: [UInt8], tokens: [[UInt8]]) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &self) {
            let index = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &self)
            let end = min(bytes.count, index + Int.random(in: 1...12, using: &self))
            switch Int.random(in: 0..<7, using: &self) {
            case 0, 1: bytes.insert(contentsOf: pick(tokens), at: index)
            case 2: bytes.removeSubrange(index..<end)
            case 3: if !bytes.isEmpty { bytes[index] = UInt8.random(in: 0...255, using: &self) }
            case 4: bytes.insert(contentsOf: Array(bytes[index..<end]), at: index)
            case 5: if end < bytes.count { bytes.swapAt(index, end) }
            default: bytes.removeSubrange(index...)
            }
        }
        return bytes
    }

    mutating func mutateText(_ text: String) -> String {
        let tokens = ["=", ",", "date", "name", "amount", "budget", "yyyy", "MM", "M", "dd", "d", "y", "Q", "é", " ", "", "\u{0}"]
        var pieces = text.map(String.init)
        for _ in 0..<Int.random(in: 1...3, using: &self) {
            let index = pieces.isEmpty ? 0 : Int.random(in: 0..<pieces.count, using: &self)
            switch Int.random(in: 0..<3, using: &self) {
            case 0: pieces.insert(pick(tokens), at: index)
            case 1: if !pieces.isEmpty { pieces.remove(at: index) }
            default: pieces = Array(pieces.prefix(index))
            }
        }
        return pieces.joined()
    }
}
