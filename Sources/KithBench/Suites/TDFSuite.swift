import Foundation
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
    }
}
