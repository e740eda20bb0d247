import Foundation
import KithMLS
import KithMLSConformance

/// The outcome counts of one vector file.
struct VectorFileReport {
    /// The file as given on the command line.
    var path: String
    /// Cases whose checks all matched.
    var passed = 0
    /// Cases with a mismatch or error.
    var failed = 0
    /// Cases not run (unsupported suite or not yet implemented).
    var skipped = 0
    /// The first failure, `case N: reason`.
    var firstFailure: String?
    /// Distinct skip reasons.
    var skipReasons: [String] = []
    /// Extra lines about the file (how it was read, which steps its cases went through).
    var notes: [String] = []

    /// Records one case outcome.
    mutating func record(_ outcome: VectorOutcome, caseIndex: Int) {
        switch outcome {
        case .passed: passed += 1
        case .failed(let reason):
            failed += 1
            if firstFailure == nil { firstFailure = "case \(caseIndex): \(reason)" }
        case .skipped(let reason):
            skipped += 1
            if !skipReasons.contains(reason) { skipReasons.append(reason) }
        }
    }

    /// `FILE: N passed, M failed, K skipped` followed by the first failure and skip reasons.
    var lines: [String] {
        var out = ["\(path): \(passed) passed, \(failed) failed, \(skipped) skipped"]
        if let firstFailure { out.append("  first failure: \(firstFailure)") }
        for reason in skipReasons { out.append("  skipped: \(reason)") }
        for note in notes { out.append("  \(note)") }
        return out
    }
}
