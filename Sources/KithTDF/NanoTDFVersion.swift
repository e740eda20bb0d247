import Crypto
import Foundation

extension NanoTDF {
    /// The magic-and-version field: 18 bits of magic, then a 6-bit version.
    public enum Version: UInt8, Sendable, Equatable, CaseIterable {
        /// Version 12, "L1L" (`4C 31 4C`): the OpenTDF format and the one Kith writes by default.
        case v12 = 12
        /// Version 13, "L1M" (`4C 31 4D`): Arkavo's extension that carries the recipient public key after the KAS locator.
        case v13 = 13

        /// The three bytes that start a NanoTDF of this version.
        public var magicBytes: [UInt8] { [0x4C, 0x31, 0x40 | rawValue] }

        /// The HKDF salt of this version: SHA-256 of the three magic bytes.
        public var hkdfSalt: [UInt8] { Array(SHA256.hash(data: magicBytes)) }

        /// Reads the three magic bytes.
        static func read(from cursor: inout NanoTDFCursor) throws(NanoTDFError) -> Version {
            let bytes = try cursor.read(NanoTDFLimits.magicVersionSize, "magic and version")
            guard bytes[0] == 0x4C, bytes[1] == 0x31, bytes[2] & 0xC0 == 0x40 else { throw .badMagic(bytes: bytes) }
            let number = bytes[2] & 0x3F
            guard let version = Version(rawValue: number) else { throw .unsupportedVersion(number) }
            return version
        }
    }
}
