import Foundation
import TallyCore
import TallyTestSupport
import Testing

@testable import TallyCLI

/// The guard of the format cache (a speed shortcut, see ARCHITECTURE.md): what it reads back
/// is what ICU derives, and anything else in its files is ignored.
@Suite(.ownThreads) struct MoneyFormatCacheTests {
    private func cache() throws -> (MoneyFormatCache, URL) {
        let folder = temporaryRoot.appendingPathComponent("tally-format-cache-\(UUID().uuidString)")
        return (MoneyFormatCache(environment: { $0 == "XDG_CACHE_HOME" ? folder.path : nil }), folder.appendingPathComponent("tally"))
    }

    @Test(arguments: ["de_DE", "fr_FR", "en_IE", "hi_IN", "ar_EG", "es_ES", "de_CH", "ee"])
    func aCachedFormatIsTheFreshOne(identifier: String) throws {
        let (cache, folder) = try cache()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let locale = try #require(try LocaleName.parse(identifier))
        for currency in [nil, try Currency(code: "EUR"), try Currency(code: "INR")] {
            let fresh = MoneyFormat(locale: locale, currency: currency)
            #expect(MoneyFormatCache.decode(MoneyFormatCache.encode(fresh)) == fresh)
            #expect(cache.format(locale, currency: currency) == fresh, "derived and stored")
            #expect(cache.format(locale, currency: currency) == fresh, "read back")
        }
        #expect(cache.knows(identifier))
        #expect(!cache.knows("xx_YY"))
    }

    @Test func aDamagedFileIsDerivedAgainAndRewritten() throws {
        let (cache, folder) = try cache()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let locale = try #require(try LocaleName.parse("de_DE"))
        let fresh = cache.format(locale, currency: nil)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first)
        let url = folder.appendingPathComponent(file)
        for damage in ["", "tally money format 1\n", "garbage", MoneyFormatCache.encode(fresh).replacingOccurrences(of: "\n3\n", with: "\nx\n")] {
            try Data(damage.utf8).write(to: url)
            #expect(cache.format(locale, currency: nil) == fresh)
            #expect(MoneyFormatCache.decode(try String(contentsOf: url, encoding: .utf8)) == fresh)
        }
    }

    @Test func filesOfAnotherTallyAreRemovedWhenOneIsWritten() throws {
        let (cache, folder) = try cache()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stale = folder.appendingPathComponent("money-1-2-3-de_DE-none")
        try Data("tally money format 1\n".utf8).write(to: stale)
        _ = cache.format(try #require(try LocaleName.parse("fr_FR")), currency: nil)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
    }

    /// End to end: the second run reads the cache, and a damaged cache changes nothing shown.
    @Test func theCommandLineShowsTheSameWithAndWithoutTheCache() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["budget", "add", "Food", "--limit", "1234.5"])
        let first = try sandbox.run(["budget", "list", "--locale", "de_DE"]).stdout
        let folder = sandbox.directory.appendingPathComponent("home/.cache/tally")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1 && files[0].hasSuffix("-de_DE-none"))
        #expect(try sandbox.run(["budget", "list", "--locale", "de_DE"]).stdout == first)
        for file in files { try Data("x".utf8).write(to: folder.appendingPathComponent(file)) }
        #expect(try sandbox.run(["budget", "list", "--locale", "de_DE"]).stdout == first)
        #expect(first.contains("1.234,50"))
        // A cache that cannot be written only costs time.
        try FileManager.default.removeItem(at: folder)
        try Data().write(to: folder)
        #expect(try sandbox.run(["budget", "list", "--locale", "de_DE"]).stdout == first)
    }
}
