#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An exclusive advisory lock on `HOME/personas.lock` for every read-modify-write of the persona index, so two `kith`
/// processes on one home never lose an entry (a lost entry would make its directory look orphaned).
enum PersonaIndexLock {
    static func url(_ home: AccountHome) -> URL { home.directory.appendingPathComponent("personas.lock") }

    static func withLock<R>(_ home: AccountHome, _ body: () throws(KithError) -> R) throws(KithError) -> R {
        let path = url(home).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .fileSystem(path: path, reason: "cannot open the persona lock (errno \(errno))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .fileSystem(path: path, reason: "cannot take the persona lock (errno \(errno))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
