import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical

/// Printing and error reporting shared by the commands.
enum Output {
    /// Prints a line to standard output.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Prints a line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Prints a JSON value (canonical form) on one line.
    static func json(_ value: JSONValue) {
        FileHandle.standardOutput.write(Data(CanonicalJSON.serialize(value) + [0x0A]))
    }

    /// Runs a command body; a failure becomes one line on stderr and the error's exit code.
    static func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ExitCode {
            throw error
        } catch let error as KithError {
            Output.error("kith: error: \(TerminalText.escaped(error.description))")
            throw ExitCode(error.exitCode)
        } catch {
            Output.error("kith: error: \(TerminalText.escaped("\(error)"))")
            throw ExitCode(2)
        }
    }

    /// Reads a file (or standard input for "-") as lines of bytes, without the newlines.
    static func readLines(_ path: String, maxBytes: Int = 1 << 30) throws -> [[UInt8]] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
                throw KithError.input(.file(path: path, reason: "no such file"))
            }
            if let size = attributes[.size] as? Int, size > maxBytes {
                throw KithError.input(.file(path: path, reason: "larger than \(maxBytes) bytes"))
            }
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw KithError.input(.file(path: path, reason: "not readable"))
            }
            data = contents
        }
        var lines = Array(data).split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> [UInt8] in
            line.last == 0x0D ? Array(line.dropLast()) : Array(line)
        }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}
