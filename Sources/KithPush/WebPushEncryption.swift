import Crypto
import Foundation
import KithCanonical

/// RFC 8291 message encryption for Web Push: one `aes128gcm` record (RFC 8188) keyed by ECDH
/// between a fresh sender key and the subscriber's `p256dh`, mixed with its `auth` secret.
///
/// Use ``encrypt(_:for:padding:recordSize:)`` to send; the injecting variant exists for test
/// vectors and must not be used with a reused key or salt.
public enum WebPushEncryption {
    /// Encrypts `plaintext` for a subscriber with a fresh ephemeral key and a fresh random salt.
    ///
    /// - Parameters:
    ///   - plaintext: the push message content (at most 3993 bytes without padding).
    ///   - subscriber: the subscription's `p256dh` and `auth`.
    ///   - padding: zero bytes appended after the delimiter to hide the length.
    ///   - recordSize: the header's `rs`; the record must fit in it.
    /// - Returns: the message body, to be sent with `Content-Encoding: aes128gcm`.
    /// - Throws: ``WebPushError`` when the sizes do not fit (see ``PushLimits``).
    public static func encrypt<Plaintext: Collection>(
        _ plaintext: Plaintext,
        for subscriber: WebPushSubscriberKeys,
        padding: Int = 0,
        recordSize: UInt32 = PushLimits.defaultRecordSize
    ) throws(WebPushError) -> [UInt8] where Plaintext.Element == UInt8 {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        return try encrypt(
            plaintext, for: subscriber, padding: padding, recordSize: recordSize,
            senderKey: P256.KeyAgreement.PrivateKey(), salt: salt
        )
    }

    /// Encrypts with a given sender key and salt: for known-answer tests only.
    ///
    /// Reusing a sender key and salt for two messages reuses the AES-GCM key and nonce.
    ///
    /// - Throws: ``WebPushError/invalidSalt(length:)``, ``WebPushError/recordSizeTooSmall(_:)``,
    ///   ``WebPushError/invalidPadding(_:)``, ``WebPushError/recordOverflow(needed:recordSize:)``,
    ///   ``WebPushError/messageTooLarge(size:limit:)`` or ``WebPushError/keyAgreementFailed``.
    public static func encrypt<Plaintext: Collection>(
        _ plaintext: Plaintext,
        for subscriber: WebPushSubscriberKeys,
        padding: Int,
        recordSize: UInt32,
        senderKey: P256.KeyAgreement.PrivateKey,
        salt: [UInt8]
    ) throws(WebPushError) -> [UInt8] where Plaintext.Element == UInt8 {
        guard padding >= 0 else { throw .invalidPadding(padding) }
        let senderPublic = Array(senderKey.publicKey.x963Representation)
        let header = try ContentCodingHeader(salt: salt, recordSize: recordSize, keyID: senderPublic)
        // Checked before any addition can overflow: both terms are bounded by the message limit.
        let limit = PushLimits.maxPushMessageBytes
        guard plaintext.count <= limit, padding <= limit else {
            let (sum, overflow) = plaintext.count.addingReportingOverflow(padding)
            let size = overflow || sum > Int.max - limit ? Int.max : header.encodedLength + sum + 1 + PushLimits.tagLength
            throw .messageTooLarge(size: size, limit: limit)
        }
        let recordLength = plaintext.count + 1 + padding + PushLimits.tagLength
        guard recordLength <= Int(recordSize) else { throw .recordOverflow(needed: recordLength, recordSize: recordSize) }
        let total = header.encodedLength + recordLength
        guard total <= limit else { throw .messageTooLarge(size: total, limit: limit) }

        let schedule = try WebPushKeySchedule(
            privateKey: senderKey, peerKey: subscriber.publicKey,
            uaPublic: subscriber.publicKeyBytes, asPublic: senderPublic,
            authSecret: subscriber.authSecret, salt: salt
        )
        var record = [UInt8]()
        record.reserveCapacity(recordLength - PushLimits.tagLength)
        record.append(contentsOf: plaintext)
        record.append(0x02)
        record.append(contentsOf: repeatElement(0, count: padding))

        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(
                record, using: SymmetricKey(data: schedule.contentEncryptionKey),
                nonce: try AES.GCM.Nonce(data: schedule.nonce)
            )
        } catch {
            throw .keyAgreementFailed
        }
        var writer = ByteWriter(capacity: total)
        header.write(to: &writer)
        writer.write(bytes: sealed.ciphertext)
        writer.write(bytes: sealed.tag)
        return writer.bytes
    }
}
