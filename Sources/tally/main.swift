import TallyCLI

Tally.main()
