import Crypto
import Foundation
import KithCanonical

/// Seals secrets and decrypted content before they reach SQLite, so the database file holds
/// no plaintext content and no key material.
///
/// Text form: `"s1." + base64url(nonce(12) || ciphertext || tag(16))`, ChaCha20-Poly1305 under the
/// identity's storage key with a random nonce; the associated data is the row's context (for
/// content, the message id), so a sealed value cannot be moved to another row.
public struct ContentSealer: Sendable {
    static let prefix = "s1."
    let key: SymmetricKey

    /// Creates a sealer from the identity's storage key.
    public init(storageKey: SymmetricKey) { key = storageKey }

    /// Seals bytes bound to `context`.
    public func seal(_ plaintext: [UInt8], context: String) -> String {
        // ChaChaPoly.seal only throws for malformed keys or nonces, which cannot happen here.
        guard let box = try? ChaChaPoly.seal(plaintext, using: key, authenticating: Array(context.utf8)) else { return "" }
        return Self.prefix + Base64URL.encode(box.combined)
    }

    /// Opens a sealed value produced by ``seal(_:context:)`` with the same context.
    public func open(_ sealed: String, context: String) throws(StoreError) -> [UInt8] {
        guard sealed.hasPrefix(Self.prefix),
              let combined = try? Base64URL.decode(String(sealed.dropFirst(Self.prefix.count))),
              let box = try? ChaChaPoly.SealedBox(combined: combined),
              let plain = try? ChaChaPoly.open(box, using: key, authenticating: Array(context.utf8)) else {
            throw .sealedValueUnreadable("value for \(context)")
        }
        return Array(plain)
    }
}

extension ContentSealer {
    /// The binary form's version byte.
    static let binaryVersion: UInt8 = 0x01

    /// Seals bytes bound to `context` in binary form, for BLOB columns holding large values (a group's state):
    /// `0x01 | nonce(12) | ciphertext | tag(16)`, no text encoding to pay on every write and read.
    public func sealBinary(_ plaintext: [UInt8], context: String) -> [UInt8] {
        // ChaChaPoly.seal only throws for malformed keys or nonces, which cannot happen here.
        guard let box = try? ChaChaPoly.seal(plaintext, using: key, authenticating: Array(context.utf8)) else { return [] }
        var sealed: [UInt8] = [Self.binaryVersion]
        sealed.reserveCapacity(1 + box.combined.count)
        sealed.append(contentsOf: box.combined)
        return sealed
    }

    /// Opens a value produced by ``sealBinary(_:context:)`` with the same context.
    public func openBinary(_ sealed: [UInt8], context: String) throws(StoreError) -> [UInt8] {
        guard sealed.first == Self.binaryVersion,
              let box = try? ChaChaPoly.SealedBox(combined: sealed.dropFirst()),
              let plain = try? ChaChaPoly.open(box, using: key, authenticating: Array(context.utf8)) else {
            throw .sealedValueUnreadable("value for \(context)")
        }
        return Array(plain)
    }
}

extension ContentSealer {
    /// A keyed digest (HMAC-SHA256 under the storage key, domain-separated by `domain`) to find a secret
    /// by in SQL without storing it: equal secrets give equal digests, and without the key a digest
    /// neither reveals the secret nor matches the plain SHA-256 a server stores.
    public func lookupDigest(_ secret: [UInt8], domain: String) -> [UInt8] {
        var authenticator = HMAC<SHA256>(key: key)
        authenticator.update(data: Array(domain.utf8))
        authenticator.update(data: [0])
        authenticator.update(data: secret)
        return Array(authenticator.finalize())
    }
}
