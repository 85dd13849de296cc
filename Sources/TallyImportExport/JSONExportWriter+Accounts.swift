import TallyCore

extension JSONExportWriter {
    /// Version 7's keys, each only when it has entries: accounts, then the rows naming them.
    func appendAccounts(_ declared: DeclaredAccounts) {
        func section<Entry>(_ key: String, _ entries: [Entry], _ body: (Entry) -> Void) {
            guard !entries.isEmpty else { return }
            line.append(contentsOf: "\n  \"\(key)\": [".utf8)
            for (index, entry) in entries.enumerated() {
                line.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
                body(entry)
                line.append(UInt8(ascii: "}"))
            }
            line.append(contentsOf: "\n  ],".utf8)
        }
        section("accounts", declared.accounts.map(AccountDTO.init)) { dto in
            appendKey("name", first: true)
            appendString(dto.name)
            appendKey("kind")
            appendString(dto.kind)
            appendKey("opening")
            appendString(dto.opening)
            if let openingDate = dto.openingDate {
                appendKey("openingDate")
                appendString(openingDate)
            }
            if dto.archived == true {
                appendKey("archived")
                line.append(contentsOf: "true".utf8)
            }
            if let number = dto.number {
                appendKey("number")
                appendString(number)
            }
        }
        section("incomes", declared.incomes.map { IncomeDTO($0.income, account: $0.account) }) { dto in
            appendKey("name", first: true)
            appendString(dto.name)
            appendKey("amount")
            appendString(dto.amount)
            appendKey("date")
            appendString(dto.date)
            appendKey("account")
            appendString(dto.account)
            appendKey("tags")
            appendStrings(dto.tags)
            if let by = dto.by {
                appendKey("by")
                appendString(by)
            }
            appendForeign(dto.original, rate: dto.rate, rateSource: dto.rateSource)
        }
        section("transfers", declared.transfers.map { TransferDTO($0.transfer, from: $0.from, to: $0.to) }) { dto in
            appendKey("amount", first: true)
            appendString(dto.amount)
            appendKey("date")
            appendString(dto.date)
            appendKey("from")
            appendString(dto.from)
            appendKey("to")
            appendString(dto.to)
            if let name = dto.name {
                appendKey("name")
                appendString(name)
            }
        }
        section("assertions", declared.assertions.map { AssertionDTO($0.assertion, account: $0.account) }) { dto in
            appendKey("account", first: true)
            appendString(dto.account)
            appendKey("date")
            appendString(dto.date)
            appendKey("balance")
            appendString(dto.balance)
        }
    }
}
