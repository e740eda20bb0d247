import Crypto
import Foundation
import KithCanonical

/// RFC 8291 message decryption: the user agent's side, used by Kith's own push receiver and by tests.
///
/// Every malformed input ends in a ``WebPushError``; nothing is trusted before the AES-GCM tag verifies.
public enum WebPushDecryption {
    /// Decrypts a Web Push message body (`Content-Encoding: aes128gcm`).
    ///
    /// Checks, in order: the 4096-byte limit, the header, a 65-byte `keyid` that is a P-256 point,
    /// exactly one record no longer than `rs`, the tag, and the final 0x02 padding delimiter.
    ///
    /// - Parameters:
    ///   - body: the message body as received.
    ///   - keys: the receiver's private key and auth secret.
    /// - Returns: the plaintext without delimiter and padding.
    /// - Throws: ``WebPushError`` naming the first check that failed.
    public static func decrypt<Body: Collection>(
        _ body: Body, with keys: WebPushReceiverKeys
    ) throws(WebPushError) -> [UInt8] where Body.Element == UInt8 {
        guard body.count <= PushLimits.maxPushMessageBytes else {
            throw .messageTooLarge(size: body.count, limit: PushLimits.maxPushMessageBytes)
        }
        var reader = ByteReader(body)
        let header = try ContentCodingHeader.read(from: &reader)
        guard header.keyID.count == PushLimits.publicKeyLength else { throw .invalidKeyIDLength(header.keyID.count) }
        let senderKey = try WebPushSubscriberKeys.parsePublicKey(header.keyID)

        let ciphertext = reader.readRemaining()
        guard ciphertext.count > PushLimits.tagLength else { throw .ciphertextTooShort(ciphertext.count) }
        guard ciphertext.count <= Int(header.recordSize) else {
            throw .multipleRecords(ciphertextLength: ciphertext.count, recordSize: header.recordSize)
        }

        let schedule = try WebPushKeySchedule(
            privateKey: keys.privateKey, peerKey: senderKey,
            uaPublic: keys.publicKeyBytes, asPublic: header.keyID,
            authSecret: keys.authSecret, salt: header.salt
        )
        let split = ciphertext.count - PushLimits.tagLength
        let record: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(
                nonce: try AES.GCM.Nonce(data: schedule.nonce),
                ciphertext: ciphertext[..<split],
                tag: ciphertext[split...]
            )
            record = Array(try AES.GCM.open(box, using: SymmetricKey(data: schedule.contentEncryptionKey)))
        } catch {
            throw .authenticationFailed
        }
        return try removePadding(record)
    }

    /// Strips the zero padding and checks the delimiter of the last (and only) record.
    static func removePadding(_ record: [UInt8]) throws(WebPushError) -> [UInt8] {
        guard let delimiterIndex = record.lastIndex(where: { $0 != 0 }) else { throw .missingPaddingDelimiter }
        let delimiter = record[delimiterIndex]
        guard delimiter == 0x02 else { throw .notLastRecord(delimiter: delimiter) }
        return Array(record[..<delimiterIndex])
    }
}
