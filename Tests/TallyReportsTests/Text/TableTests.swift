import Testing

import TallyReports

@Suite struct TableTests {
    @Test func alignsColumnsAndRightAlignsAmounts() {
        var table = Table([.left("Name"), .right("Amount"), .left("Note")])
        table.append(["Rent", "1,200.00", ""])
        table.append(["Café", "3.50", "hot"])
        #expect(table.rendered() == """
            Name    Amount  Note
            ----  --------  ----
            Rent  1,200.00
            Café      3.50  hot
            """)
    }

    @Test func countsWideCharactersAsTwoColumns() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("Café") == 4)
        #expect(DisplayWidth.of("Cafe\u{301}") == 4)
        #expect(DisplayWidth.of("食費") == 4)
        #expect(DisplayWidth.of("☕️") == 2)
        #expect(DisplayWidth.of("🍕 Pizza") == 8)
        var table = Table([.left("Name"), .right("Spent")])
        table.append(["食費", "1.00"])
        table.append(["Food", "2.00"])
        #expect(table.rendered() == """
            Name  Spent
            ----  -----
            食費   1.00
            Food   2.00
            """)
    }
}
