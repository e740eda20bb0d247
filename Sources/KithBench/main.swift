import Foundation

/// `kith-bench [--json] [SUITE...]`: runs benchmark suites and prints `name value unit` lines.
let allSuites: [any BenchSuite.Type] = BenchRegistry.suites

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == VerifyPeakMemory.command { VerifyPeakMemory.runChild(Array(arguments.dropFirst())) }
if arguments.first == ServerChild.command { await ServerChild.run() }
if arguments.first == ContinuityChild.command { await ContinuityChild.main(Array(arguments.dropFirst())) }
if arguments.first == PushServerChild.command { await PushServerChild.run() }
let json = arguments.contains("--json")
arguments.removeAll { $0 == "--json" }
if arguments.contains("--help") || arguments.contains("-h") {
    emit("usage: kith-bench [--json] [SUITE...]   (suites: \(allSuites.map { $0.name }.joined(separator: ", ")); default: all)")
    exit(0)
}
let unknown = arguments.filter { name in !allSuites.contains { $0.name == name } }
if !unknown.isEmpty {
    FileHandle.standardError.write(Data("kith-bench: unknown suite(s) \(unknown.joined(separator: ", ")); known: \(allSuites.map { $0.name }.joined(separator: ", "))\n".utf8))
    exit(64)
}
let selected = arguments.isEmpty ? allSuites : allSuites.filter { arguments.contains($0.name) }
if let figures = await runSuites(selected, json: json) {
    if json {
        let entries = figures.map { "{\"name\":\"\($0.name)\",\"unit\":\"\($0.unit)\",\"value\":\(BenchFormat.value($0.value))}" }
        emit("[" + entries.joined(separator: ",") + "]")
    }
} else {
    exit(1)
}

/// Runs the suites in order, printing each figure as it comes unless `json`; nil when one failed
/// (reported on standard error).
func runSuites(_ suites: [any BenchSuite.Type], json: Bool) async -> [BenchFigure]? {
    var figures: [BenchFigure] = []
    for suite in suites {
        do {
            try await suite.run { figure in
                figures.append(figure)
                if !json { emit("\(figure.name) \(BenchFormat.value(figure.value)) \(figure.unit)") }
            }
        } catch {
            FileHandle.standardError.write(Data("kith-bench: suite \(suite.name) failed: \(error)\n".utf8))
            return nil
        }
    }
    return figures
}

/// Writes one line to standard output immediately (no buffering, so long runs show progress).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
