#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KithServer
import Testing

/// A database that stops answering must not hold store calls for as long as postgres-nio's pool
/// keeps reconnecting (found by Interop/faults: `/health` answered after 67 s during a PostgreSQL
/// restart). A listener that completes TCP handshakes and never answers stands in for it: with no
/// deadline, opening a store against it waits out the pool's connect timeouts and retries.
@Suite("PostgreSQL store calls have a deadline")
struct PostgresCallDeadlineTests {
    @Test("a store call to a database that never answers fails within its deadline", .timeLimit(.minutes(3)))
    func aSilentDatabaseFailsTheCall() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let configuration = try PostgresRendezvousStore.configuration(url: "postgres://kith:kith@127.0.0.1:\(silent.port)/kith")
        do {
            _ = try await PostgresRendezvousStore.open(configuration: configuration, nodeID: "deadline-test", callDeadline: .seconds(1))
            Issue.record("a database that never answers opened")
        } catch {
            #expect("\(error)".contains("no answer from PostgreSQL within 1 s"), "\(error)")
        }
    }
}

/// A TCP socket on 127.0.0.1 that listens and never accepts: the kernel completes connections into
/// its backlog, and nothing is ever sent back.
private struct SilentListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
        #else
        throw POSIXError(.ENOTSUP)
        #endif
    }

    func close() {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #endif
    }
}
