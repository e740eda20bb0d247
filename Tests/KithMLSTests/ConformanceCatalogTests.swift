import Foundation
import KithMLS
import KithMLSConformance
import KithTestSupport
import Testing

@Suite struct ConformanceCatalogTests {
    /// Every file in the shared MLS vector folder has a checker, so no file is silently left out.
    @Test func everySharedVectorFileHasAChecker() throws {
        let folder = TestPaths.officialVectors.appendingPathComponent("mls")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(names.count == 16)
        for name in names {
            let entry = ConformanceCatalog.vector(forFileName: name)
            #expect(entry != nil, "\(name) is not in the catalog")
            #expect(entry??.fileName == name, "\(name) has no checker")
        }
    }

    @Test func unknownFileNameIsNotInCatalog() {
        #expect(ConformanceCatalog.vector(forFileName: "nope.json") == nil)
    }
}
