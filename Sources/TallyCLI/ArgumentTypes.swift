import ArgumentParser
import TallyCore

extension Month: ExpressibleByArgument {
    public init?(argument: String) {
        guard let month = try? Month(parsing: argument) else { return nil }
        self = month
    }
}

extension Day: ExpressibleByArgument {
    public init?(argument: String) {
        guard let day = try? Day(parsing: argument) else { return nil }
        self = day
    }
}

extension Money: ExpressibleByArgument {
    public init?(argument: String) {
        guard let money = try? Money(parsing: argument) else { return nil }
        self = money
    }
}
