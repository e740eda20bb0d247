import Foundation
import KithFuzzTargets
import KithTestSupport
import Testing

/// Every fuzz target runs over its seed corpus (`Fuzz/Corpus/TARGET/`) and over every input that
/// once broke it (`Fuzz/Regressions/TARGET/`): a decoder change that crashes on any of them, or
/// breaks a round trip, fails here without libFuzzer.
@Suite("Fuzz corpora replay")
struct FuzzCorpusReplayTests {
    static let fuzzRoot = TestPaths.repositoryRoot.appendingPathComponent("Fuzz")

    static func inputs(_ folder: String, _ target: String) -> [URL] {
        let url = fuzzRoot.appendingPathComponent(folder).appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { url.appendingPathComponent($0) }
    }

    @Test("there are at least 16 targets, with distinct names, each with a seed corpus")
    func targetsHaveSeeds() {
        #expect(FuzzTargets.all.count >= 16)
        #expect(Set(FuzzTargets.all.map(\.name)).count == FuzzTargets.all.count)
        for target in FuzzTargets.all {
            #expect(!Self.inputs("Corpus", target.name).isEmpty, "no seeds for \(target.name): run scripts/fuzz-seeds.py")
        }
    }

    @Test("every seed and every regression input runs through its target", arguments: FuzzTargets.all.map(\.name))
    func replay(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        for url in Self.inputs("Corpus", name) + Self.inputs("Regressions", name) {
            target.run(Array(try Data(contentsOf: url)))
        }
    }

    @Test("an input split at the separator gives its parts")
    func partsSplitAtTheSeparator() {
        #expect(FuzzProperty.parts(of: [1, 0xFE, 0xED, 2, 3, 0xFE]) == [[1], [2, 3, 0xFE]])
        #expect(FuzzProperty.parts(of: []) == [[]])
    }
}
