import Crypto
import Foundation

/// The hash function of a cipher suite, with the HMAC and HKDF built on it.
public enum HashAlgorithm: Sendable, Hashable {
    /// SHA-256.
    case sha256
    /// SHA-384.
    case sha384
    /// SHA-512.
    case sha512

    /// Output size in bytes (`KDF.Nh`).
    public var outputSize: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// `Hash(data)`.
    public func hash(_ data: [UInt8]) -> [UInt8] {
        switch self {
        case .sha256: SHA256.hash(data: data).withUnsafeBytes { Array($0) }
        case .sha384: SHA384.hash(data: data).withUnsafeBytes { Array($0) }
        case .sha512: SHA512.hash(data: data).withUnsafeBytes { Array($0) }
        }
    }

    /// `HMAC(key, data)` (RFC 2104), built on the incremental hash: without the key object and padding buffers of
    /// swift-crypto's `HMAC` it costs a third as much, which matters for the many short HKDF calls of MLS.
    public func mac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        switch self {
        case .sha256: Self.hmac(SHA256.self, key: key, data: data)
        case .sha384: Self.hmac(SHA384.self, key: key, data: data)
        case .sha512: Self.hmac(SHA512.self, key: key, data: data)
        }
    }

    /// `H((K ^ opad) || H((K ^ ipad) || data))`, with keys longer than a block hashed first.
    private static func hmac<H: HashFunction>(_ function: H.Type, key: [UInt8], data: [UInt8]) -> [UInt8] {
        let blockSize = H.blockByteCount
        let blockKey = key.count > blockSize ? H.hash(data: key).withUnsafeBytes { Array($0) } : key
        var innerPad = [UInt8](repeating: 0x36, count: blockSize)
        var outerPad = [UInt8](repeating: 0x5C, count: blockSize)
        for (index, byte) in blockKey.enumerated() {
            innerPad[index] ^= byte
            outerPad[index] ^= byte
        }
        var inner = H()
        innerPad.withUnsafeBytes { inner.update(bufferPointer: $0) }
        data.withUnsafeBytes { inner.update(bufferPointer: $0) }
        let innerDigest = inner.finalize()
        var outer = H()
        outerPad.withUnsafeBytes { outer.update(bufferPointer: $0) }
        innerDigest.withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize().withUnsafeBytes { Array($0) }
    }

    /// `HKDF-Extract(salt, ikm)`; an empty salt means `Nh` zero bytes.
    public func extract(salt: [UInt8], ikm: [UInt8]) -> [UInt8] {
        // HKDF-Extract is HMAC(salt, ikm); an empty HMAC key is equivalent to Nh zero bytes.
        mac(key: salt, data: ikm)
    }

    /// `HKDF-Expand(prk, info, length)`; throws when `length` exceeds `255 * Nh`.
    public func expand(prk: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        guard length >= 0, length <= 255 * outputSize else {
            throw MLSCryptoError.invalidLength("HKDF-Expand output of \(length) bytes exceeds 255*Nh")
        }
        if length <= outputSize {
            // One block: T(1) = HMAC(PRK, info || 0x01), truncated (RFC 5869 §2.3).
            var block = info
            block.append(1)
            let first = mac(key: prk, data: block)
            return length == outputSize ? first : Array(first.prefix(length))
        }
        let key = SymmetricKey(data: prk)
        let output: SymmetricKey
        switch self {
        case .sha256: output = HKDF<SHA256>.expand(pseudoRandomKey: key, info: info, outputByteCount: length)
        case .sha384: output = HKDF<SHA384>.expand(pseudoRandomKey: key, info: info, outputByteCount: length)
        case .sha512: output = HKDF<SHA512>.expand(pseudoRandomKey: key, info: info, outputByteCount: length)
        }
        return output.withUnsafeBytes { Array($0) }
    }
}
