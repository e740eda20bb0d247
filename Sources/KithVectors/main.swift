import Foundation
import KithMLS
import KithMLSConformance

/// `kith-vectors mls FILE...`: runs official test-vector files and prints `FILE: N passed, M failed, K skipped` per file.
/// Exits 0 only when no case failed.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: kith-vectors mls FILE...   (files from mlswg/mls-implementations test-vectors)"

guard let family = arguments.first, family == "mls", arguments.count >= 2 else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}

var totals = (passed: 0, failed: 0, skipped: 0)
for path in arguments.dropFirst() {
    let report = MLSVectorRunner.run(path: path)
    for line in report.lines { print(line) }
    totals.passed += report.passed
    totals.failed += report.failed
    totals.skipped += report.skipped
}
print("total: \(totals.passed) passed, \(totals.failed) failed, \(totals.skipped) skipped")
exit(totals.failed == 0 ? 0 : 1)
