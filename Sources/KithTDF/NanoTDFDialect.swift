/// The cryptographic conventions a NanoTDF was written with, beyond what its bytes say.
///
/// The header alone cannot tell a reader how the 3-byte IV becomes a GCM nonce, what the 8-byte
/// "GMAC" binding is, or which HKDF salt the writer used. Two families exist in the wild (see
/// docs/TDF.md, "Dialects"):
/// - ``sdk``: the OpenTDF Go/Java/Python SDKs and Kith's own `kith-nanotdf-1`;
/// - ``arkavo``: OpenTDFKit, the Swift library of the Arkavo app (the revision the app pins, d8ffeff,
///   and its later head).
public struct NanoTDFDialect: Sendable, Equatable, CustomStringConvertible {
    /// How the payload's 3-byte IV is widened to the 12-byte AES-GCM nonce.
    public enum NonceLayout: Sendable, Equatable {
        /// `00×9 ‖ IV` (the SDKs, Kith).
        case zerosThenIV
        /// `IV ‖ 00×9` (OpenTDFKit pads the IV on the right).
        case ivThenZeros
    }

    /// What the 8-byte "GMAC" policy binding is.
    public enum GMACBinding: Sendable, Equatable {
        /// `SHA-256(binding message)[24..<32]`, unkeyed, over the policy content without its length (the SDKs, Kith).
        case sha256Suffix
        /// The first 8 bytes of an AES-GCM tag under the payload key: empty plaintext, the policy as written
        /// (length-prefixed content, or the locator) as additional data, and an all-zero nonce. OpenTDFKit's
        /// head uses the zero nonce; the revision the Arkavo app pins used a random nonce it never stored,
        /// so such bindings cannot be verified by anyone.
        case gcmTagZeroNonce
    }

    /// A short name (`sdk`, `arkavo`).
    public let name: String
    /// The payload nonce layout.
    public let nonceLayout: NonceLayout
    /// The GMAC binding scheme.
    public let gmacBinding: GMACBinding
    /// How ECDSA bindings are laid out when reading.
    public let ecdsaBindingEncoding: NanoTDF.ECDSABindingEncoding
    /// Writers of this dialect salt HKDF with SHA-256 of their header's magic (true), or always with "L1L" (false).
    let writesHeaderSalt: Bool

    /// The OpenTDF SDKs' dialect and Kith's `kith-nanotdf-1`: `00×9 ‖ IV`, SHA-256 binding, salt of the header's magic.
    public static let sdk = NanoTDFDialect(
        name: "sdk", nonceLayout: .zerosThenIV, gmacBinding: .sha256Suffix, ecdsaBindingEncoding: .lengthPrefixed,
        writesHeaderSalt: true)

    /// OpenTDFKit's dialect (the Arkavo app): `IV ‖ 00×9`, keyed GCM-tag binding.
    ///
    /// Reading tries the salt of the header's magic first (what OpenTDFKit's writers use: "L1M" at the
    /// pinned revision, "L1L" at its head), then, for an "L1M" header, the "L1L" salt (what the app's own
    /// reader derives with, so what Kith writes for it). Writing puts an "L1M" header with the recipient
    /// key and salts with "L1L", the only file the app's reader opens.
    public static let arkavo = NanoTDFDialect(
        name: "arkavo", nonceLayout: .ivThenZeros, gmacBinding: .gcmTagZeroNonce, ecdsaBindingEncoding: .fixed,
        writesHeaderSalt: false)

    /// The short name.
    public var description: String { name }

    /// The 12-byte AES-GCM nonce of a payload with this 3-byte IV.
    public func payloadNonce(iv: [UInt8]) -> [UInt8] {
        let zeros = [UInt8](repeating: 0, count: NanoTDFLimits.gcmNonceSize - iv.count)
        switch nonceLayout {
        case .zerosThenIV: return zeros + iv
        case .ivThenZeros: return iv + zeros
        }
    }

    /// The version whose salt (`SHA-256` of its magic) a writer of this dialect uses for a header of `version`.
    public func writeSalt(for version: NanoTDF.Version) -> NanoTDF.Version {
        writesHeaderSalt ? version : .v12
    }

    /// The salts a reader tries for a header of `version`, in order (each names the version whose magic is hashed).
    public func readSalts(for version: NanoTDF.Version) -> [NanoTDF.Version] {
        if writesHeaderSalt || version == .v12 { return [version] }
        return [version, .v12]
    }

    /// The read options that parse this dialect's files.
    public var readOptions: NanoTDF.ReadOptions { NanoTDF.ReadOptions(ecdsaBindingEncoding: ecdsaBindingEncoding) }
}
