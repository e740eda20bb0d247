@testable import Kith
import Foundation
import KithCanonical
import KithIdentity
import KithSync
import KithTestSupport
import Synchronization

/// Shared pieces of the persona tests: homes, identifier needles, file scans and a transport that records its bytes.
enum PersonaTestSupport {
    /// A fresh temporary home.
    static func temporaryHome() -> AccountHome {
        AccountHome(directory: FileManager.default.temporaryDirectory.appendingPathComponent("kith-persona-\(UUID().uuidString)"))
    }

    /// A main account on disk (fast scrypt).
    static func mainAccount(home: AccountHome = temporaryHome(), clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) async throws -> Account {
        try await Account.create(home: home, scrypt: .testing, passphrase: { "p" }, clock: clock)
    }

    /// Every encoding of an identity's identifiers and public keys that must not appear where it should not: the feed
    /// id (text, and raw bytes in every encoding of `ByteNeedles`), the identity, dh and pq public keys (likewise).
    static func needles(of identity: Identity) -> [(String, [UInt8])] {
        let keys = identity.publicKeys
        let raw: [(String, [UInt8])] = [
            ("feed id raw", identity.feedID.rawBytes),
            ("identity key", Array(keys.identityKey.rawRepresentation)),
            ("dh key", Array(keys.dhKey.rawRepresentation)),
            ("pq key prefix", Array(Array(keys.pqKey.rawRepresentation).prefix(48))),
        ]
        return [("feed id text", Array(identity.feedID.string.utf8))] + raw.flatMap { ByteNeedles.encodings($0.0, $0.1) }
    }

    /// The needles of an account's identity plus its seed bytes.
    static func secretNeedles(of account: Account) -> [(String, [UInt8])] {
        needles(of: account.identity) + [("seed", account.deviceSeed.withUnsafeBytes { Array($0) })]
    }

    /// The names of the needles found in `haystack`.
    static func found(_ needles: [(String, [UInt8])], in haystack: [UInt8]) -> [String] {
        ByteNeedles.found(needles, in: haystack)
    }

    /// Every regular file under `directory` with its bytes.
    static func files(under directory: URL) -> [(URL, [UInt8])] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var out: [(URL, [UInt8])] = []
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                  let data = FileManager.default.contents(atPath: url.path) else { continue }
            out.append((url, Array(data)))
        }
        return out
    }

    /// The needles found in any file under `directory`, as "file: needle".
    static func foundInFiles(_ needles: [(String, [UInt8])], under directory: URL) -> [String] {
        files(under: directory).flatMap { file in found(needles, in: file.1).map { "\(file.0.lastPathComponent): \($0)" } }
    }
}

/// A transport that records every frame it sends and receives.
final class RecordingTransport: SyncTransport {
    let inner: any SyncTransport
    let frames = Mutex<[[UInt8]]>([])

    init(_ inner: any SyncTransport) { self.inner = inner }

    var mtu: Int { inner.mtu }
    var recorded: [UInt8] { frames.withLock { $0.flatMap { $0 } } }

    func send(_ frame: [UInt8]) async throws(SyncTransportError) {
        frames.withLock { $0.append(frame) }
        try await inner.send(frame)
    }

    func receive() async throws(SyncTransportError) -> [UInt8] {
        let frame = try await inner.receive()
        frames.withLock { $0.append(frame) }
        return frame
    }

    func close() async { await inner.close() }
}
