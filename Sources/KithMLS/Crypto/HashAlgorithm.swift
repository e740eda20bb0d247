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
        case .sha256: Array(SHA256.hash(data: data))
        case .sha384: Array(SHA384.hash(data: data))
        case .sha512: Array(SHA512.hash(data: data))
        }
    }

    /// `HMAC(key, data)`.
    public func mac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        let symmetricKey = SymmetricKey(data: key)
        switch self {
        case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: data, using: symmetricKey))
        case .sha384: return Array(HMAC<SHA384>.authenticationCode(for: data, using: symmetricKey))
        case .sha512: return Array(HMAC<SHA512>.authenticationCode(for: data, using: symmetricKey))
        }
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
