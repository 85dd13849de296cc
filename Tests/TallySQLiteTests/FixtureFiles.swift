import Foundation
import TallyTestSupport
import Testing

/// A committed schema fixture (`Fixtures/schema-vN.sqlite`) copied into a temporary folder,
/// so a test can open, migrate and write it: the path of the copy.
func copiedFixture(_ name: String, as copy: String? = nil) throws -> String {
    let fixture = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    let path = try temporaryFolder().appendingPathComponent(copy ?? name).path
    try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
    return path
}
