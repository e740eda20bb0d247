import Crypto
import Foundation
import KithIdentity

/// The sealed files of personas: `HOME/personas.sealed` (the index) and `HOME/personas/<id>/persona.sealed` (one
/// persona's seed).
///
///     file = version (0x01) || salt (32 random bytes) || ChaCha20-Poly1305 combined (nonce || ciphertext || tag)
///     key  = HKDF-SHA256(ikm = main device seed, salt = the file's salt, info = purpose label, 32 bytes)
///     aad  = purpose label || local id (empty for the index)
///
/// A fresh random salt per file gives every persona its own key: one persona's file never opens with another's key,
/// and once the file is overwritten and unlinked its salt is gone, so the main seed alone no longer opens anything.
enum PersonaSealing {
    /// The file format version.
    static let version: UInt8 = 0x01
    /// The salt length.
    static let saltLength = 32
    /// The largest sealed file read (the index of ``Account/Personas/maxPersonas`` personas fits well below it).
    static let maxFileSize = 1 << 20

    /// What a sealed file is for: its HKDF info and associated data label.
    enum Purpose: String {
        case index = "Kith_PersonaIndex_v1"
        case seed = "Kith_PersonaSeed_v1"
    }

    static func seal(_ plaintext: [UInt8], purpose: Purpose, localID: String, mainSeed: Seed) throws(PersonaError) -> [UInt8] {
        var salt = [UInt8](repeating: 0, count: saltLength)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        let key = self.key(purpose: purpose, localID: localID, salt: salt, mainSeed: mainSeed)
        do {
            let box = try ChaChaPoly.seal(plaintext, using: key, authenticating: associatedData(purpose, localID))
            return [version] + salt + Array(box.combined)
        } catch {
            throw .damaged(path: purpose.rawValue, reason: "sealing failed: \(error)")
        }
    }

    static func open(_ sealed: [UInt8], purpose: Purpose, localID: String, mainSeed: Seed, path: String) throws(PersonaError) -> [UInt8] {
        guard sealed.count > 1 + saltLength, sealed[0] == version else {
            throw .damaged(path: path, reason: "not a persona file of version \(version)")
        }
        let salt = Array(sealed[1...saltLength])
        let key = self.key(purpose: purpose, localID: localID, salt: salt, mainSeed: mainSeed)
        guard let box = try? ChaChaPoly.SealedBox(combined: sealed[(1 + saltLength)...]),
              let plain = try? ChaChaPoly.open(box, using: key, authenticating: associatedData(purpose, localID)) else {
            throw .damaged(path: path, reason: "does not open with this device's seed")
        }
        return Array(plain)
    }

    /// Reads a sealed file (nil when it does not exist), bounded by ``maxFileSize``.
    static func read(_ url: URL) throws(PersonaError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw .damaged(path: url.path, reason: "cannot be read") }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maxFileSize + 1) else { return [] }
        guard data.count <= maxFileSize else { throw .damaged(path: url.path, reason: "larger than \(maxFileSize) bytes") }
        return Array(data)
    }

    private static func key(purpose: Purpose, localID: String, salt: [UInt8], mainSeed: Seed) -> SymmetricKey {
        let ikm = mainSeed.withUnsafeBytes { SymmetricKey(data: $0) }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Array(purpose.rawValue.utf8), outputByteCount: 32)
    }

    private static func associatedData(_ purpose: Purpose, _ localID: String) -> [UInt8] {
        Array(purpose.rawValue.utf8) + Array(localID.utf8)
    }
}
