import Crypto
import Foundation
import KithCanonical
import Testing
@testable import KithPush

/// Every malformed input ends in a typed ``WebPushError``, never a crash.
@Suite struct WebPushRejectionTests {
    let receiver = WebPushReceiverKeys.generate()

    func validBody(_ plaintext: [UInt8] = Array("hello".utf8), recordSize: UInt32 = 4096) throws -> [UInt8] {
        try WebPushEncryption.encrypt(plaintext, for: receiver.subscriberKeys, recordSize: recordSize)
    }

    // MARK: encryption inputs

    @Test func rejectsBadSubscriberKeys() {
        let auth = [UInt8](repeating: 1, count: 16)
        let point = receiver.publicKeyBytes
        #expect(throws: WebPushError.invalidAuthSecret(length: 15)) { try WebPushSubscriberKeys(p256dh: point, auth: Array(auth.dropLast())) }
        #expect(throws: WebPushError.self) { try WebPushSubscriberKeys(p256dh: Array(point.dropLast()), auth: auth) }
        var compressed = point
        compressed[0] = 0x03
        #expect(throws: WebPushError.self) { try WebPushSubscriberKeys(p256dh: compressed, auth: auth) }
        var offCurve = point
        offCurve[64] ^= 0x01
        #expect(throws: WebPushError.invalidPublicKey("not a point on P-256")) { try WebPushSubscriberKeys(p256dh: offCurve, auth: auth) }
        #expect(throws: WebPushError.self) { try WebPushSubscriberKeys(p256dh: "not base64!", auth: "BTBZMqHH6r4Tts7J_aSIgg") }
        #expect(throws: WebPushError.self) { try WebPushSubscriberKeys(p256dh: Base64URL.encode(point), auth: "BTBZMqHH6r4Tts7J_aSIgg==") }
    }

    @Test func rejectsBadSizes() throws {
        let keys = receiver.subscriberKeys
        #expect(throws: WebPushError.recordSizeTooSmall(17)) { try WebPushEncryption.encrypt([1], for: keys, recordSize: 17) }
        #expect(throws: WebPushError.recordOverflow(needed: 19, recordSize: 18)) { try WebPushEncryption.encrypt([1, 2], for: keys, recordSize: 18) }
        #expect(throws: WebPushError.invalidPadding(-1)) { try WebPushEncryption.encrypt([1], for: keys, padding: -1) }
        let tooBig = [UInt8](repeating: 0, count: PushLimits.maxPlaintextBytes + 1)
        #expect(throws: WebPushError.messageTooLarge(size: 4097, limit: 4096)) { try WebPushEncryption.encrypt(tooBig, for: keys, recordSize: 8192) }
        #expect(throws: WebPushError.self) { try WebPushEncryption.encrypt([1], for: keys, padding: Int.max) }
        #expect(throws: WebPushError.self) { try WebPushEncryption.encrypt([UInt8](repeating: 0, count: 1 << 20), for: keys) }
        #expect(throws: WebPushError.invalidSalt(length: 15)) {
            try WebPushEncryption.encrypt([1], for: keys, padding: 0, recordSize: 4096, senderKey: .init(), salt: [UInt8](repeating: 0, count: 15))
        }
    }

    // MARK: decryption inputs

    @Test func rejectsTruncationAtEveryLength() throws {
        let body = try validBody()
        for length in 0..<body.count {
            #expect(throws: WebPushError.self) { try WebPushDecryption.decrypt(body[..<length], with: receiver) }
        }
    }

    @Test func rejectsEveryFlippedBitOutsideTheRecordSize() throws {
        let body = try validBody()
        // rs (bytes 16..<20) is not an input of the key schedule: RFC 8188 authenticates it only
        // through the record boundaries, so with one record a changed rs still decrypts.
        for index in body.indices where !(16..<20).contains(index) {
            var altered = body
            altered[index] ^= 0x80
            #expect(throws: WebPushError.self) { try WebPushDecryption.decrypt(altered, with: receiver) }
        }
    }

    @Test func changedRecordSizeStillDecryptsWhileTheRecordFits() throws {
        var body = try validBody()
        body[16] ^= 0x80
        #expect(try WebPushDecryption.decrypt(body, with: receiver) == Array("hello".utf8))
    }

    @Test func rejectsOversizedBody() throws {
        let body = try validBody() + [UInt8](repeating: 0, count: 4096)
        #expect(throws: WebPushError.messageTooLarge(size: body.count, limit: 4096)) { try WebPushDecryption.decrypt(body, with: receiver) }
    }

    @Test func rejectsWrongKeyIDLength() throws {
        var body = try validBody()
        body[20] = 64
        #expect(throws: WebPushError.invalidKeyIDLength(64)) { try WebPushDecryption.decrypt(body, with: receiver) }
    }

    @Test func rejectsSmallRecordSizeInHeader() throws {
        var body = try validBody()
        body.replaceSubrange(16..<20, with: [0, 0, 0, 17])
        #expect(throws: WebPushError.recordSizeTooSmall(17)) { try WebPushDecryption.decrypt(body, with: receiver) }
    }

    @Test func rejectsMoreThanOneRecord() throws {
        var body = try validBody(Array(repeating: 0x61, count: 40))
        body.replaceSubrange(16..<20, with: [0, 0, 0, 18])
        #expect(throws: WebPushError.multipleRecords(ciphertextLength: 57, recordSize: 18)) { try WebPushDecryption.decrypt(body, with: receiver) }
    }

    @Test func rejectsShortCiphertext() throws {
        let body = Array(try validBody()[..<(86 + 16)])
        #expect(throws: WebPushError.ciphertextTooShort(16)) { try WebPushDecryption.decrypt(body, with: receiver) }
    }

    @Test func rejectsOtherReceiver() throws {
        let body = try validBody()
        #expect(throws: WebPushError.authenticationFailed) { try WebPushDecryption.decrypt(body, with: WebPushReceiverKeys.generate()) }
        let sameKeyOtherSecret = try WebPushReceiverKeys(privateKey: receiver.privateKey, authSecret: [UInt8](repeating: 9, count: 16))
        #expect(throws: WebPushError.authenticationFailed) { try WebPushDecryption.decrypt(body, with: sameKeyOtherSecret) }
    }

    @Test func checksTheDelimiter() throws {
        #expect(throws: WebPushError.missingPaddingDelimiter) { try WebPushDecryption.removePadding([0, 0, 0]) }
        #expect(throws: WebPushError.missingPaddingDelimiter) { try WebPushDecryption.removePadding([]) }
        #expect(throws: WebPushError.notLastRecord(delimiter: 1)) { try WebPushDecryption.removePadding([0x41, 1, 0]) }
        #expect(throws: WebPushError.notLastRecord(delimiter: 0x41)) { try WebPushDecryption.removePadding([0x41]) }
        #expect(try WebPushDecryption.removePadding([0x41, 2, 0, 0]) == [0x41])
        #expect(try WebPushDecryption.removePadding([2]) == [])
    }

    @Test func rejectsNonLastRecordDelimiterAfterAuthentication() throws {
        // A record sealed with delimiter 0x01 by the same keys: authentic, but not a final record.
        let vectorSalt = [UInt8](repeating: 7, count: 16)
        let sender = P256.KeyAgreement.PrivateKey()
        let senderPublic = Array(sender.publicKey.x963Representation)
        let schedule = try WebPushKeySchedule(
            privateKey: sender, peerKey: receiver.privateKey.publicKey,
            uaPublic: receiver.publicKeyBytes, asPublic: senderPublic,
            authSecret: receiver.authSecret, salt: vectorSalt
        )
        let sealed = try AES.GCM.seal([UInt8]([0x41, 0x01]), using: SymmetricKey(data: schedule.contentEncryptionKey), nonce: AES.GCM.Nonce(data: schedule.nonce))
        var writer = ByteWriter()
        try ContentCodingHeader(salt: vectorSalt, recordSize: 4096, keyID: senderPublic).write(to: &writer)
        writer.write(bytes: sealed.ciphertext)
        writer.write(bytes: sealed.tag)
        #expect(throws: WebPushError.notLastRecord(delimiter: 1)) { try WebPushDecryption.decrypt(writer.bytes, with: receiver) }
    }

    @Test func errorsHaveCodesAndDescriptions() {
        let errors: [WebPushError] = [.invalidPublicKey("x"), .invalidPrivateKey, .invalidAuthSecret(length: 1), .invalidSalt(length: 1),
            .recordSizeTooSmall(1), .invalidPadding(-1), .recordOverflow(needed: 1, recordSize: 1), .messageTooLarge(size: 1, limit: 1),
            .truncatedHeader("x"), .invalidKeyIDLength(1), .ciphertextTooShort(1), .multipleRecords(ciphertextLength: 1, recordSize: 1),
            .authenticationFailed, .missingPaddingDelimiter, .notLastRecord(delimiter: 1), .keyAgreementFailed]
        #expect(Set(errors.map(\.code)).count == errors.count)
        for error in errors { #expect(!error.description.isEmpty) }
    }
}
