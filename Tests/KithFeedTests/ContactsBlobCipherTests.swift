import Crypto
import KithCanonical
import Testing
@testable import KithFeed

@Suite struct ContactsBlobCipherTests {
    let photo: [UInt8] = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test func roundTripsAndHashesTheCiphertext() throws {
        let sealed = try BlobCipher.seal(photo)
        #expect(sealed.blob.count == photo.count + 17)
        #expect(sealed.blob[0] == 1)
        #expect(sealed.contentHash == Base64URL.encode(SHA256.hash(data: sealed.blob)))
        #expect(try BlobCipher.open(sealed.blob, contentHash: sealed.contentHash, key: sealed.key) == photo)
    }

    @Test func freshKeysGiveDifferentBlobs() throws {
        #expect(try BlobCipher.seal(photo).contentHash != (try BlobCipher.seal(photo).contentHash))
    }

    @Test func rejectsAWrongHashTamperingOrAWrongKey() throws {
        let sealed = try BlobCipher.seal(photo)
        var tampered = sealed.blob
        tampered[100] ^= 1
        #expect(throws: ContactsCipherError.blobHashMismatch) { try BlobCipher.open(tampered, contentHash: sealed.contentHash, key: sealed.key) }
        #expect(throws: ContactsCipherError.authenticationFailed) {
            try BlobCipher.open(tampered, contentHash: BlobCipher.contentHash(of: tampered), key: sealed.key)
        }
        let other = try BlobCipher.seal([1, 2, 3])
        #expect(throws: ContactsCipherError.authenticationFailed) { try BlobCipher.open(sealed.blob, contentHash: sealed.contentHash, key: other.key) }
        #expect(throws: ContactsCipherError.self) { try BlobCipher.open([1], contentHash: BlobCipher.contentHash(of: [1]), key: sealed.key) }
    }

    @Test func rejectsOversizedAttachments() {
        #expect(throws: ContactsCipherError.self) {
            try BlobCipher.seal([UInt8](repeating: 0, count: ContactsLimits.maxBlobPlaintextBytes + 1))
        }
    }
}
