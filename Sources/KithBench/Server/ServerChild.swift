import Foundation
import KithServer
import Logging

/// The `kith serve` under load, in a child process of the benchmark so that its resident memory
/// is its own: `kith-bench _serve-child` runs a ``RendezvousServer`` on a free loopback port with
/// the production defaults except the limits a load generator on one address would hit (REST and
/// message rates, the connection cap), prints `PORT`, and runs until SIGTERM.
enum ServerChild {
    /// The hidden command line of the child.
    static let command = "_serve-child"

    /// The child: serves until SIGTERM; exits 0 after a graceful shutdown.
    static func run() async -> Never {
        var limits = RendezvousServerLimits()
        limits.requestsPerSource = RateLimitRule(burst: 1_000_000, perSecond: 1_000_000)
        limits.guessesPerSource = RateLimitRule(burst: 1_000_000, perSecond: 1_000_000)
        limits.wrongGuessesPerNode = RateLimitRule(burst: 1_000_000, perSecond: 1_000_000)
        limits.messagesPerConnection = RateLimitRule(burst: 1_000_000, perSecond: 1_000_000)
        limits.maximumConnections = 30_000
        // The load generator is one source: neither the per-source cap nor the reserve for other sources applies.
        limits.connectionsPerSource = 1_000_000
        limits.reservedConnectionShare = 0
        limits.idleTimeout = .seconds(3_600)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-bench-serve-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try SQLiteRendezvousStore.open(path: directory.appendingPathComponent("rendezvous.sqlite").path)
            var logger = Logger(label: "kith.bench.serve")
            logger.logLevel = .critical
            let server = RendezvousServer(configuration: RendezvousServerConfiguration(port: 0, limits: limits), store: store, logger: logger)
            try await server.run { _, port in
                FileHandle.standardOutput.write(Data("\(port)\n".utf8))
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("kith-bench \(command): \(error)\n".utf8))
            exit(1)
        }
    }

    /// A running child server.
    struct Handle {
        let process: Process
        let port: Int

        /// The child's resident memory now, in KiB (`VmRSS` of /proc/PID/status).
        var residentKilobytes: Int? {
            guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }

        /// Stops the child with SIGTERM and waits for it.
        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Starts the child (`command` names which: this one, or ``PushServerChild``) and waits for its port.
    static func start(command: String = command) throws -> Handle {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        child.arguments = [command]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        var line: [UInt8] = []
        let reader = output.fileHandleForReading
        while true {
            let byte = reader.readData(ofLength: 1)
            guard let first = byte.first else { break }
            if first == 0x0A { break }
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)), port > 0 else {
            child.terminate()
            throw BenchFailure("the server child did not report a port")
        }
        return Handle(process: child, port: port)
    }
}
