import Crypto
import KithMLS
import KithMLSConformance
import Testing

/// The hand-built HMAC and one-block HKDF-Expand equal swift-crypto's for every hash and for keys shorter than, equal to
/// and longer than a block.
@Suite struct HashAlgorithmTests {
    private static let keyLengths = [0, 1, 32, 48, 64, 65, 128, 129, 300]

    private static func referenceMAC(_ hash: HashAlgorithm, key: [UInt8], data: [UInt8]) -> [UInt8] {
        let symmetricKey = SymmetricKey(data: key)
        switch hash {
        case .sha256: return HMAC<SHA256>.authenticationCode(for: data, using: symmetricKey).withUnsafeBytes { Array($0) }
        case .sha384: return HMAC<SHA384>.authenticationCode(for: data, using: symmetricKey).withUnsafeBytes { Array($0) }
        case .sha512: return HMAC<SHA512>.authenticationCode(for: data, using: symmetricKey).withUnsafeBytes { Array($0) }
        }
    }

    private static func referenceExpand(_ hash: HashAlgorithm, prk: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        let key = SymmetricKey(data: prk)
        switch hash {
        case .sha256: return HKDF<SHA256>.expand(pseudoRandomKey: key, info: info, outputByteCount: length).withUnsafeBytes { Array($0) }
        case .sha384: return HKDF<SHA384>.expand(pseudoRandomKey: key, info: info, outputByteCount: length).withUnsafeBytes { Array($0) }
        case .sha512: return HKDF<SHA512>.expand(pseudoRandomKey: key, info: info, outputByteCount: length).withUnsafeBytes { Array($0) }
        }
    }

    @Test(arguments: [HashAlgorithm.sha256, .sha384, .sha512])
    func macMatchesSwiftCrypto(hash: HashAlgorithm) {
        for length in Self.keyLengths {
            let key = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            for data in [[], [UInt8](repeating: 0xAB, count: 1), [UInt8](repeating: 0x01, count: 200)] {
                #expect(hash.mac(key: key, data: data) == Self.referenceMAC(hash, key: key, data: data), "key \(length) data \(data.count)")
            }
        }
    }

    @Test(arguments: [HashAlgorithm.sha256, .sha384, .sha512])
    func expandMatchesSwiftCryptoForEveryLength(hash: HashAlgorithm) throws {
        let prk = [UInt8](repeating: 0x42, count: hash.outputSize)
        let info = Array("MLS 1.0 label".utf8)
        // swift-crypto's HKDF traps on an output length of 0, so that length is checked on its own.
        #expect(try hash.expand(prk: prk, info: info, length: 0).isEmpty)
        for length in [1, 12, 16, 32, hash.outputSize, hash.outputSize + 1, 3 * hash.outputSize + 5] {
            #expect(try hash.expand(prk: prk, info: info, length: length) == Self.referenceExpand(hash, prk: prk, info: info, length: length),
                    "length \(length)")
        }
    }
}
