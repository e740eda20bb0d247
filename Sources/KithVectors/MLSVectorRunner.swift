import Foundation
import KithMLS

/// Runs official MLS vector files through the KithMLS conformance checkers.
enum MLSVectorRunner {
    /// Checks one file; unreadable or unknown files count as one failure.
    static func run(path: String) -> VectorFileReport {
        var report = VectorFileReport(path: path)
        let name = URL(fileURLWithPath: path).lastPathComponent
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            report.record(.failed("cannot read file: \(error.localizedDescription)"), caseIndex: 0)
            return report
        }
        guard let known = ConformanceCatalog.vector(forFileName: name) else {
            report.record(.failed("unknown vector file name \(name)"), caseIndex: 0)
            return report
        }
        guard let vectorType = known else {
            // Known file whose checks are not implemented: count its cases as skipped, never as passed.
            do {
                let count = try caseCount(data)
                for index in 0..<count { report.record(.skipped("not yet implemented"), caseIndex: index) }
            } catch {
                report.record(.failed("not a JSON array: \(error)"), caseIndex: 0)
            }
            return report
        }
        do {
            for (index, outcome) in try outcomes(vectorType, data: data).enumerated() { report.record(outcome, caseIndex: index) }
        } catch {
            report.record(.failed("cannot decode \(name): \(error)"), caseIndex: 0)
        }
        return report
    }

    private static func outcomes<T: ConformanceVector>(_ type: T.Type, data: Data) throws -> [VectorOutcome] {
        try JSONDecoder().decode([T].self, from: data).map { $0.check() }
    }

    private static func caseCount(_ data: Data) throws -> Int {
        guard let array = try JSONSerialization.jsonObject(with: data) as? [Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        return array.count
    }
}
