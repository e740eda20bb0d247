import Foundation
import KithMLS
import KithMLSConformance
import KithTestSupport
import Testing

/// Loads official MLS vector files and runs every case, reporting which ran.
enum VectorFiles {
    /// Decodes every case of `T.fileName` from the shared MLS vectors folder.
    static func load<T: ConformanceVector>(_ type: T.Type) throws -> [T] {
        let data = try TestPaths.officialVector("mls/" + T.fileName)
        return try JSONDecoder().decode([T].self, from: data)
    }

    /// Runs every case of `T.fileName`; records an issue for each failure and returns the counts.
    @discardableResult
    static func runAll<T: ConformanceVector>(_ type: T.Type, expectedCases: Int? = nil) throws -> (passed: Int, skipped: Int) {
        let cases = try load(type)
        if let expectedCases { #expect(cases.count == expectedCases, "\(T.fileName): case count") }
        var passed = 0, skipped = 0
        var skipReasons: Set<String> = []
        for (index, vector) in cases.enumerated() {
            switch vector.check() {
            case .passed: passed += 1
            case .skipped(let reason): skipped += 1; skipReasons.insert(reason)
            case .failed(let reason): Issue.record("\(T.fileName) case \(index): \(reason)")
            }
        }
        print("\(T.fileName): ran \(cases.count - skipped) of \(cases.count) cases, \(passed) passed, \(skipped) skipped \(skipReasons.sorted())")
        #expect(passed > 0, "\(T.fileName): no case passed")
        return (passed, skipped)
    }
}
