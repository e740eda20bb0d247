import Foundation
import KithMLS
import KithMLSConformance

/// Runs official MLS vector files through the KithMLS conformance checkers.
enum MLSVectorRunner {
    /// Checks one file; unreadable or unknown files count as one failure.
    ///
    /// Passive-client files — the three official ones, upstream `interop/passive/*.json`, or any file whose cases decode
    /// as passive-client cases — are run case by case with the ReInit and branch steps counted and reported.
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
        if ConformanceCatalog.passiveClientFiles.contains(name) || ConformanceCatalog.interopPassiveFiles.contains(name) {
            runPassive(data: data, name: name, into: &report)
            return report
        }
        guard let known = ConformanceCatalog.vector(forFileName: name) else {
            // An unknown name may still hold passive-client cases (renamed interop files); anything else is a failure.
            if let cases = try? JSONDecoder().decode([PassiveClientCase].self, from: data), !cases.isEmpty {
                report.notes.append("read as passive-client cases (\(name) is not an official file name)")
                runPassive(cases, into: &report)
            } else {
                report.record(.failed("unknown vector file name \(name)"), caseIndex: 0)
            }
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

    private static func runPassive(data: Data, name: String, into report: inout VectorFileReport) {
        do {
            runPassive(try JSONDecoder().decode([PassiveClientCase].self, from: data), into: &report)
        } catch {
            report.record(.failed("cannot decode \(name) as passive-client cases: \(error)"), caseIndex: 0)
        }
    }

    /// Runs passive-client cases and notes the steps they went through beyond plain commits.
    private static func runPassive(_ cases: [PassiveClientCase], into report: inout VectorFileReport) {
        var totals = PassiveClientRun(outcome: .passed)
        var leaving = 0
        for (index, passiveCase) in cases.enumerated() {
            let run = passiveCase.run()
            report.record(run.outcome, caseIndex: index)
            totals.commits += run.commits
            totals.reinitCommits += run.reinitCommits
            totals.reinitWelcomes += run.reinitWelcomes
            totals.branchWelcomes += run.branchWelcomes
            if run.leftFirstGroup { leaving += 1 }
        }
        report.notes.append("steps: \(totals.commits) commits processed; \(totals.reinitCommits) ReInit commits, "
                            + "\(totals.reinitWelcomes) ReInit Welcomes and \(totals.branchWelcomes) branch Welcomes followed "
                            + "(\(leaving) of \(cases.count) cases left their first group)")
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
