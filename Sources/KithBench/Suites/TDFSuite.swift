import Crypto
import Foundation
import KithStore
import KithTDF

/// Suite `tdf` (issue 17): one-time key pools and NanoTDF messages, on one core.
///
/// - `tdf.pool_generate_8192_s`: generating a pool of 8,192 P-256 key pairs (target under 5 s; OpenTDFKit's anchor is
///   23 s for 8,192 P-521 keys on an M1 Max).
/// - `tdf.encrypt_280_ms` / `tdf.decrypt_280_ms`: one 280-byte message through the pool: take the next public key and
///   encrypt (ECDH, HKDF, AES-256-GCM, GMAC binding); find the private key by its id, decrypt, delete it (target under
///   0.5 ms per encrypt; OpenTDFKit's anchor is ~1.1 ms).
/// - `tdf.pool_offer_bytes` / `tdf.pool_private_bytes`: what a pool of 8,192 keys weighs (public halves as sent,
///   private scalars before sealing).
/// - `tdf.store_install_8192_s`: storing one exchange (8,192 private halves sealed, 8,192 peer public keys) in one
///   SQLite transaction on a file database (WAL, `synchronous = FULL`).
/// - `tdf.sqlite_private_8192_bytes` / `tdf.sqlite_public_8192_bytes`: what each side of an 8,192-key pool adds to
///   the database file (sealed private halves with their ids; peer public keys with position and used flag).
/// - `tdf.store_encrypt_280_ms` / `tdf.store_decrypt_280_ms`: one 280-byte message through the stored pool, each in
///   its own committed SQLite transaction: take and mark the next peer key, then encrypt; find and open the sealed
///   private key by id, decrypt, delete it.
enum TDFSuite: BenchSuite {
    static let name = "tdf"

    static func run(report: (BenchFigure) -> Void) async throws {
        let generate = try BenchClock.seconds { _ = try OneTimeKeyPool(size: OneTimeKeyPool.defaultSize) }
        report(BenchFigure(name: "tdf.pool_generate_8192_s", value: (generate * 1000).rounded() / 1000, unit: "s"))

        var pool = try OneTimeKeyPool(size: OneTimeKeyPool.defaultSize)
        var peer = pool.offer
        report(BenchFigure(name: "tdf.pool_offer_bytes", value: Double(peer.publicKeys.reduce(0) { $0 + $1.count }), unit: "bytes"))
        report(BenchFigure(name: "tdf.pool_private_bytes", value: Double(pool.remaining * 32), unit: "bytes"))

        let message = [UInt8](repeating: 0x61, count: 280)
        let policy = NanoTDF.EncryptionConfiguration.PolicyInput.plaintext(Array(#"{"body":{"dataAttributes":[],"dissem":[]}}"#.utf8))
        let count = 2_000
        var sealed: [NanoTDF] = []
        sealed.reserveCapacity(count)
        let encrypt = try BenchClock.seconds {
            for _ in 0..<count { sealed.append(try peer.encrypt(message, kasBody: "kith", policy: policy)) }
        }
        let decrypt = try BenchClock.seconds {
            for nano in sealed { _ = try pool.open(nano) }
        }
        report(BenchFigure(name: "tdf.encrypt_280_ms", value: (encrypt / Double(count) * 1e6).rounded() / 1e3, unit: "ms"))
        report(BenchFigure(name: "tdf.decrypt_280_ms", value: (decrypt / Double(count) * 1e6).rounded() / 1e3, unit: "ms"))
        report(BenchFigure(name: "tdf.nanotdf_280_bytes", value: Double(sealed[0].serialized.count), unit: "bytes"))
        try storedPool(message: message, policy: policy, report: report)
    }

    /// The figures through SQLite: one store plays both sides (Alice's pool for Bob, Bob's keys from Alice).
    private static func storedPool(message: [UInt8], policy: NanoTDF.EncryptionConfiguration.PolicyInput, report: (BenchFigure) -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-bench-tdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FeedStore(path: directory.appendingPathComponent("kith.sqlite").path, storageKey: SymmetricKey(size: .bits256))
        let mine = try OneTimeKeyPool(size: OneTimeKeyPool.defaultSize)
        let own = mine.exportedPrivateKeys.map { (keyID: $0.id.bytes, privateKey: $0.rawPrivateKey) }
        let peerKeys = mine.offer.publicKeys

        // Storage per side: a pool with 8,192 private halves (one peer key), then one with 8,192 public keys.
        let empty = try store.storageBytes()
        try store.withOneTimePools { pools throws(OneTimePoolError) in
            try pools.install(peer: "size-private", exchangeID: [1], state: .active, ownKeys: own, peerKeys: [peerKeys[0]])
        }
        let withPrivate = try store.storageBytes()
        try store.withOneTimePools { pools throws(OneTimePoolError) in
            try pools.install(peer: "size-public", exchangeID: [2], state: .active, ownKeys: [own[0]], peerKeys: peerKeys)
        }
        let withPublic = try store.storageBytes()
        report(BenchFigure(name: "tdf.sqlite_private_8192_bytes", value: Double(withPrivate - empty), unit: "bytes"))
        report(BenchFigure(name: "tdf.sqlite_public_8192_bytes", value: Double(withPublic - withPrivate), unit: "bytes"))

        // The pool both ways with one peer: the store sends to its own keys and reads them back.
        let install = try BenchClock.seconds {
            try store.withOneTimePools { pools throws(OneTimePoolError) in
                try pools.install(peer: "peer", exchangeID: [3], state: .active, ownKeys: own, peerKeys: peerKeys)
            }
        }
        report(BenchFigure(name: "tdf.store_install_8192_s", value: (install * 1000).rounded() / 1000, unit: "s"))

        let count = 500
        var sealed: [NanoTDF] = []
        sealed.reserveCapacity(count)
        let encrypt = try BenchClock.seconds {
            for _ in 0..<count {
                let nano = try store.withOneTimePools { pools throws(OneTimePoolError) in
                    let taken = try pools.takeNextPeerKey(peer: "peer")
                    do {
                        let key = try P256.KeyAgreement.PublicKey(compressedRepresentation: taken.publicKey)
                        let kas = try NanoTDF.ResourceLocator(
                            scheme: .sharedResourceDirectory, body: "kith", identifier: OneTimeKeyID(compressedPublicKey: taken.publicKey).bytes)
                        return try NanoTDF.encrypt(message, to: .p256(key), configuration: .init(kas: kas, policy: policy))
                    } catch {
                        throw .invalidPool("\(error)")
                    }
                }
                sealed.append(nano)
            }
        }
        let decrypt = try BenchClock.seconds {
            for nano in sealed {
                let id = nano.header.kas.identifier
                try store.withOneTimePools { pools throws(OneTimePoolError) in
                    let raw = try pools.ownPrivateKey(peer: "peer", keyID: id)
                    do {
                        _ = try nano.decrypt(using: .p256(try P256.KeyAgreement.PrivateKey(rawRepresentation: raw)))
                    } catch {
                        throw .invalidPool("\(error)")
                    }
                    try pools.deleteOwnKey(peer: "peer", keyID: id)
                }
            }
        }
        report(BenchFigure(name: "tdf.store_encrypt_280_ms", value: (encrypt / Double(count) * 1e6).rounded() / 1e3, unit: "ms"))
        report(BenchFigure(name: "tdf.store_decrypt_280_ms", value: (decrypt / Double(count) * 1e6).rounded() / 1e3, unit: "ms"))
    }
}
