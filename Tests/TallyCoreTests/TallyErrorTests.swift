import TallyTestSupport
import Testing
import TallyCore

@Suite(.ownThreads) struct TallyErrorTests {
    @Test func messagesNameTheValue() {
        #expect(TallyError.invalidAmount("12,50").localizedDescription.contains("'12,50'"))
        #expect(TallyError.budgetNotFound("Cafe").localizedDescription == "no budget named 'Cafe'")
        #expect(TallyError.budgetNotEmpty("Food", expenseCount: 3).localizedDescription.contains("3 expenses"))
        #expect(TallyError.expenseNotFound(42).localizedDescription == "no expense with id 42")
    }

    @Test func messagesStayOnOneLineAndShort() {
        let hostile = "evil\nname\r\u{1B}[31m" + String(repeating: "x", count: 10_000)
        let message = TallyError.nameHasControlCharacters(.budget, hostile).localizedDescription
        #expect(!message.contains("\n"))
        #expect(!message.contains("\r"))
        #expect(!message.contains("\u{1B}"))
        #expect(message.contains("\\n"))
        #expect(message.count < 300)
        #expect(message.contains("(10015 characters)"))
    }
}

@Suite(.ownThreads) struct ChangeContextTests {
    @Test func aPasswordNeverReachesTheHistory() {
        let command = ChangeContext.sanitized([
            "budget", "list", "--db", "postgresql://anna:s3cret@db.example:5432/ledger", "--db=postgres://bob:hunter2@host/x", "two words",
        ])
        #expect(!command.contains("s3cret") && !command.contains("hunter2"), "\(command)")
        #expect(command.hasPrefix("budget list --db postgresql://anna@db.example:5432/ledger"), "\(command)")
        #expect(command.hasSuffix(" \"two words\""), "\(command)")
    }
}
