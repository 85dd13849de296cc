import ArgumentParser
import Foundation
import TallyCore
import TallyUseCases

/// How this run shows things and what it assumes, resolved once, before the command line is
/// parsed, from the flags, the environment and the config file.
///
/// Precedence is flag > environment > config file > default, as in most tools: `--db` beats
/// `TALLY_DB` beats `db`; `--color` beats `NO_COLOR` beats `color`. The locale is the one
/// exception: the config file's `locale` beats `LC_ALL`, `LC_MONETARY` and `LANG`, which a
/// system sets for every program, because choosing Tally's figures is why a person writes it;
/// `--locale` beats both.
struct Preferences {
    var config = ConfigFile()
    /// `nil`: no locale, figures as Tally always showed them (`1,234.50`).
    var locale: LocaleName?
    var color: ColorChoice = .auto
    /// NO_COLOR is set (and not empty): `auto` stays plain.
    var noColor = false
    private var formats = Formats(cache: nil)

    /// The formats this run has used, so that parsing an amount and showing it read them once.
    private final class Formats {
        let cache: MoneyFormatCache?
        var made: [String: MoneyFormat] = [:]

        init(cache: MoneyFormatCache?) {
            self.cache = cache
        }

        func format(_ locale: LocaleName, currency: Currency?) -> MoneyFormat {
            let key = locale.identifier + "-" + (currency?.code ?? "")
            if let format = made[key] { return format }
            let format = cache?.format(locale, currency: currency) ?? MoneyFormat(locale: locale, currency: currency)
            made[key] = format
            return format
        }
    }

    /// Set once by ``Tally/run(arguments:)`` before any command runs; the process is one
    /// thread until then, and nothing writes it after.
    nonisolated(unsafe) static var current = Preferences()

    /// Reads the config file and the environment, then the global flags among `arguments` (which
    /// ``GlobalOptions`` has checked for conflicting repeats). A bad config file throws
    /// ``ConfigError``; a bad `--locale` or `--color`, a usage error.
    static func resolve(arguments: [String], environment: (String) -> String?) throws -> Preferences {
        var preferences = Preferences()
        preferences.config = try ConfigFile.load(environment: environment)
        for warning in preferences.config.warnings { Console.warn(warning) }

        let cache = MoneyFormatCache(environment: environment)
        preferences.formats = Formats(cache: cache)
        if let flag = GlobalOptions.value(of: "--locale", in: arguments) {
            preferences.locale = try known(flag, cache: cache)
        } else if let configured = preferences.config.locale {
            do {
                preferences.locale = try known(configured, cache: cache)
            } catch {
                let config = preferences.config
                throw ConfigError.invalidValue(path: config.path, line: config.line(of: "locale"), key: "locale", reason: error.message)
            }
        } else {
            // A system's own setting that ICU does not know is no reason to fail: C figures then.
            let system = ["LC_ALL", "LC_MONETARY", "LANG"].compactMap { environment($0) }.first { !$0.isEmpty }
            preferences.locale = system.flatMap { try? known($0, cache: cache) }
        }

        preferences.noColor = !(environment("NO_COLOR") ?? "").isEmpty
        if let flag = GlobalOptions.value(of: "--color", in: arguments) {
            guard let color = ColorChoice(rawValue: flag) else {
                throw ValidationError("invalid --color \(quoted(flag)): use auto, always or never")
            }
            preferences.color = color
        } else if preferences.noColor {
            preferences.color = .never
        } else if let configured = preferences.config.color {
            preferences.color = configured
        }
        return preferences
    }

    /// Whether text for standard output gets colour.
    var colorsStandardOutput: Bool {
        switch color {
        case .always: true
        case .never: false
        case .auto: !noColor && isatty(STDOUT_FILENO) == 1
        }
    }

    /// The locale `text` names, checked against ICU's list unless the cache has met it before.
    private static func known(_ text: String, cache: MoneyFormatCache) throws(TallyError) -> LocaleName? {
        guard let identifier = LocaleName.normalized(text) else { return nil }
        if cache.knows(identifier) { return LocaleName(knownIdentifier: identifier) }
        let locale = try LocaleName.parse(text)
        // Cached now, so that the next run knows the name.
        if let locale { _ = cache.format(locale, currency: nil) }
        return locale
    }

    /// How amounts look: the locale's conventions with the ledger's currency. Without either,
    /// ``MoneyFormat/plain``, and ICU is never loaded.
    func moneyFormat(currency: Currency?) -> MoneyFormat {
        guard locale != nil || currency != nil else { return .plain }
        return formats.format(locale ?? .neutral, currency: currency)
    }

    /// How the amounts of `ledger`, which a use case has just opened, look: one small read for its currency.
    func moneyFormat(for ledger: Ledger) throws(TallyError) -> MoneyFormat {
        try moneyFormat(currency: ShowSettings().run(in: ledger).currency)
    }

    /// An amount typed on the command line: `.` always works, and so does the locale's decimal
    /// sign (`12,50` in `de_DE`). Plain digits never load ICU.
    func amount(_ text: String) throws(TallyError) -> Money {
        guard locale != nil, !text.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return try Money(parsing: text) }
        return try moneyFormat(currency: nil).parse(text)
    }
}
