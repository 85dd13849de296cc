import Foundation
import TallyCore

/// The conventions ``MoneyFormat/init(locale:currency:)`` reads from ICU, kept in
/// `$XDG_CACHE_HOME/tally` (default `~/.cache/tally`), one small file per locale and currency.
///
/// A speed shortcut: loading ICU's number data and checking the locale against its list costs a
/// `tally add` nearly as much as the whole command without a locale. Reading a file back costs a
/// few system calls. Each file's name carries the executable's size and modification time, so a
/// different Tally (with other ICU data) never reads another's files. A file that is missing, unreadable or not
/// exactly what this type writes is derived again; writing is best effort, so a read-only home
/// only makes commands slower. `MoneyFormatCacheTests` hold a cached format equal to a fresh one.
final class MoneyFormatCache {
    let folder: String

    init(environment: (String) -> String?) {
        folder = UserFolders.base("XDG_CACHE_HOME", fallback: ".cache", environment) + "/tally"
    }

    /// The executable's size and modification time, read only once a locale is in play.
    private lazy var stamp: String = {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "unknown" }
        return "\(info.st_size)-\(info.st_mtim.tv_sec)-\(info.st_mtim.tv_nsec)"
    }()

    private func path(_ identifier: String, _ currency: Currency?) -> String {
        "\(folder)/money-\(stamp)-\(identifier)-\(currency?.code ?? "none")"
    }

    /// Whether `identifier` was checked against ICU's locales before (its plain format is cached).
    func knows(_ identifier: String) -> Bool {
        access(path(identifier, nil), R_OK) == 0
    }

    /// The format of `locale` with `currency`, from the cache or else from ICU (and then cached).
    func format(_ locale: LocaleName, currency: Currency?) -> MoneyFormat {
        let path = path(locale.identifier, currency)
        if let text = try? String(contentsOfFile: path, encoding: .utf8), let format = Self.decode(text) { return format }
        let format = MoneyFormat(locale: locale, currency: currency)
        store(Self.encode(format), at: path)
        return format
    }

    /// Written to a temporary name and renamed, so a reader never sees half a file.
    private func store(_ text: String, at path: String) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let temporary = path + ".\(getpid())"
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                unlink(temporary)
                return
            }
            removeOtherStamps()
        } catch {
            return
        }
    }

    /// Files another Tally wrote: after an upgrade they would only gather.
    private func removeOtherStamps() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix("money-") && !name.hasPrefix("money-\(stamp)-") {
            unlink("\(folder)/\(name)")
        }
    }

    private static let header = "tally money format 1"

    /// One field a line; no field holds a line break (ICU affixes are symbols, signs and spaces).
    static func encode(_ format: MoneyFormat) -> String {
        [
            header, String(format.digits), format.decimalSeparator, format.groupingSeparator, String(format.primaryGroup),
            String(format.secondaryGroup), String(format.minimumGroupingDigits), format.positivePrefix, format.positiveSuffix,
            format.negativePrefix, format.negativeSuffix,
        ].joined(separator: "\n") + "\n"
    }

    static func decode(_ text: String) -> MoneyFormat? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count == 12, lines[0] == header, lines[11].isEmpty, lines[1].count == 10, !lines[2].isEmpty,
            let primary = Int(lines[4]), let secondary = Int(lines[5]), let minimum = Int(lines[6]),
            (0...9).contains(primary), (0...9).contains(secondary), (1...9).contains(minimum)
        else { return nil }
        return MoneyFormat(
            digits: Array(lines[1]), decimalSeparator: lines[2], groupingSeparator: lines[3], primaryGroup: primary,
            secondaryGroup: secondary, minimumGroupingDigits: minimum, positivePrefix: lines[7], positiveSuffix: lines[8],
            negativePrefix: lines[9], negativeSuffix: lines[10])
    }
}
