import Foundation
import KithFuzzTargets

/// `kith-fuzz list` and `kith-fuzz replay TARGET PATH…` (a path may be a folder of inputs), the
/// modes of a build without libFuzzer.
enum FuzzCommandLine {
    static func run(_ arguments: [String]) -> Int32 {
        switch arguments.dropFirst().first {
        case "list":
            for target in FuzzTargets.all { print("\(target.name)\t\(target.summary)") }
            return 0
        case "replay":
            guard arguments.count >= 4, let target = FuzzTargets.named(arguments[2]) else { return usage() }
            var count = 0
            for path in arguments.dropFirst(3) {
                for file in inputFiles(at: path) {
                    guard let data = FileManager.default.contents(atPath: file) else {
                        FileHandle.standardError.write(Data("kith-fuzz: cannot read \(file)\n".utf8))
                        return 1
                    }
                    target.run(Array(data))
                    count += 1
                }
            }
            print("\(target.name): \(count) inputs replayed")
            return 0
        default:
            return usage()
        }
    }

    static func inputFiles(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }

    static func usage() -> Int32 {
        FileHandle.standardError.write(Data("""
            usage: kith-fuzz list
                   kith-fuzz replay TARGET PATH…   (files, or folders of files)
            libFuzzer runs: scripts/fuzz.sh TARGET SECONDS (a build with -sanitize=fuzzer,address)

            """.utf8))
        return 2
    }
}
