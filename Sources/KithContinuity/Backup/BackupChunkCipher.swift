import Crypto
import KithCanonical

/// The STREAM construction over ChaCha20-Poly1305: chunk `i` is sealed with nonce
/// `prefix (7) ‖ i (4, big-endian) ‖ last (1: 0x01 for the final chunk, else 0x00)` and the header as associated
/// data, so truncation (no final flag), reordering (counter), swapping chunks between files (key, prefix, header)
/// and any flipped byte fail authentication.
struct BackupChunkCipher: Sendable {
    let key: SymmetricKey
    let noncePrefix: [UInt8]
    let associatedData: [UInt8]

    /// The key-check value written after the header: HKDF-SHA256 of the key material with info "kith backup v1 key
    /// check". It tells a wrong key from a damaged file, and commits the file to one key.
    static let keyCheckInfo = Array("kith backup v1 key check".utf8)
    /// Size of the key-check value.
    static let keyCheckSize = 32

    func nonce(counter: UInt64, isLast: Bool) throws(BackupError) -> ChaChaPoly.Nonce {
        guard counter < BackupLimits.maximumChunks else { throw .malformed("more than 2^32 − 1 chunks") }
        var bytes = noncePrefix
        bytes.append(UInt8((counter >> 24) & 0xFF))
        bytes.append(UInt8((counter >> 16) & 0xFF))
        bytes.append(UInt8((counter >> 8) & 0xFF))
        bytes.append(UInt8(counter & 0xFF))
        bytes.append(isLast ? 1 : 0)
        do { return try ChaChaPoly.Nonce(data: bytes) } catch { throw .malformed("nonce: \(error)") }
    }

    func seal(_ plaintext: ArraySlice<UInt8>, counter: UInt64, isLast: Bool) throws(BackupError) -> [UInt8] {
        let nonce = try nonce(counter: counter, isLast: isLast)
        do {
            let box = try ChaChaPoly.seal(plaintext, using: key, nonce: nonce, authenticating: associatedData)
            return Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw .io("sealing a chunk failed: \(error)")
        }
    }

    /// Opens one chunk; nil when it does not authenticate.
    func open(_ sealed: [UInt8], counter: UInt64, isLast: Bool) throws(BackupError) -> [UInt8]? {
        guard sealed.count >= BackupLimits.tagSize else { return nil }
        let nonce = try nonce(counter: counter, isLast: isLast)
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: nonce, ciphertext: sealed.dropLast(BackupLimits.tagSize), tag: sealed.suffix(BackupLimits.tagSize))
            return Array(try ChaChaPoly.open(box, using: key, authenticating: associatedData))
        } catch {
            return nil
        }
    }
}

extension BackupSecret {
    /// The chunk cipher and key-check value for `header`.
    func cipher(for header: BackupHeader) throws(BackupError) -> (cipher: BackupChunkCipher, keyCheck: [UInt8]) {
        let key = try payloadKey(for: header)
        let check = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: header.salt, info: BackupChunkCipher.keyCheckInfo,
            outputByteCount: BackupChunkCipher.keyCheckSize)
        return (BackupChunkCipher(key: key, noncePrefix: header.noncePrefix, associatedData: header.encoded),
                check.withUnsafeBytes { Array($0) })
    }
}
