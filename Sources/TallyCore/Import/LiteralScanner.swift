/// Finds which of many byte strings occur in a text in one pass over it (Aho–Corasick, as a
/// full transition table): 200 rules cost one walk over a name's bytes instead of 200 searches.
/// A rule whose literal does not occur cannot match, so only the few whose literal occurs are
/// looked at further (a plain pattern then matches; a regular expression runs).
struct LiteralScanner: Sendable {
    /// `next[state * 256 + byte]`: the state after reading `byte`.
    private let next: [Int32]
    /// The needles (by index) ending at each state, following the failure links, flattened:
    /// state `s` ends `outputList[outputStart[s]..<outputStart[s + 1]]`. Nested arrays cost a
    /// retain and release for every byte scanned.
    private let outputStart: [Int32]
    private let outputList: [Int32]
    let needleCount: Int

    init(_ needles: [[UInt8]]) {
        var goto: [[Int32]] = [Array(repeating: -1, count: 256)]
        var outputs: [[Int]] = [[]]
        for (index, needle) in needles.enumerated() where !needle.isEmpty {
            var state = 0
            for byte in needle {
                let target = goto[state][Int(byte)]
                if target >= 0 {
                    state = Int(target)
                } else {
                    goto.append(Array(repeating: -1, count: 256))
                    outputs.append([])
                    goto[state][Int(byte)] = Int32(goto.count - 1)
                    state = goto.count - 1
                }
            }
            outputs[state].append(index)
        }
        // Breadth first: each state's failure is the longest proper suffix that is also a prefix,
        // and its missing transitions are its failure's.
        var failure = Array(repeating: 0, count: goto.count)
        var queue: [Int] = []
        for byte in 0..<256 {
            let target = goto[0][byte]
            if target < 0 {
                goto[0][byte] = 0
            } else {
                failure[Int(target)] = 0
                queue.append(Int(target))
            }
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            outputs[state] += outputs[failure[state]]
            for byte in 0..<256 {
                let target = goto[state][byte]
                if target < 0 {
                    goto[state][byte] = goto[failure[state]][byte]
                } else {
                    failure[Int(target)] = Int(goto[failure[state]][byte])
                    queue.append(Int(target))
                }
            }
        }
        // Needles are folded to lowercase, so ASCII capitals read as their small letters: an
        // ASCII name is scanned as it is, without building a folded copy.
        for state in goto.indices {
            for byte in 0x41...0x5A { goto[state][byte] = goto[state][byte + 0x20] }
        }
        next = goto.flatMap { $0 }
        var start: [Int32] = [0]
        var list: [Int32] = []
        for needles in outputs {
            list += needles.map { Int32($0) }
            start.append(Int32(list.count))
        }
        outputStart = start
        outputList = list
        needleCount = needles.count
    }

    /// Calls `body` with the index of every needle that occurs in `text` (once per occurrence),
    /// ignoring the case of ASCII letters.
    func scan(_ text: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Void) {
        var state = 0
        next.withUnsafeBufferPointer { table in
            outputStart.withUnsafeBufferPointer { starts in
                outputList.withUnsafeBufferPointer { list in
                    for byte in text {
                        state = Int(table[state &* 256 &+ Int(byte)])
                        var position = Int(starts[state])
                        let end = Int(starts[state &+ 1])
                        while position < end {
                            body(Int(list[position]))
                            position &+= 1
                        }
                    }
                }
            }
        }
    }
}
