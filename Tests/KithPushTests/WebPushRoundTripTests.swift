import Crypto
import Foundation
import KithCanonical
import Testing
@testable import KithPush

/// Encryption and decryption agree for fresh keys, every size up to the limit and any padding.
@Suite struct WebPushRoundTripTests {
    @Test(arguments: [0, 1, 15, 100, 1000, PushLimits.maxPlaintextBytes])
    func roundTripsEverySize(size: Int) throws {
        let receiver = WebPushReceiverKeys.generate()
        let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let body = try WebPushEncryption.encrypt(plaintext, for: receiver.subscriberKeys)
        #expect(body.count == PushLimits.webPushHeaderLength + size + 1 + PushLimits.tagLength)
        #expect(try WebPushDecryption.decrypt(body, with: receiver) == plaintext)
    }

    @Test func paddingIsRemoved() throws {
        let receiver = WebPushReceiverKeys.generate()
        let body = try WebPushEncryption.encrypt(Array("knock".utf8), for: receiver.subscriberKeys, padding: 200)
        #expect(body.count == 86 + 5 + 1 + 200 + 16)
        #expect(try WebPushDecryption.decrypt(body, with: receiver) == Array("knock".utf8))
    }

    @Test func smallestRecordSizeWorks() throws {
        let receiver = WebPushReceiverKeys.generate()
        let body = try WebPushEncryption.encrypt([0x41], for: receiver.subscriberKeys, recordSize: 18)
        #expect(try WebPushDecryption.decrypt(body, with: receiver) == [0x41])
    }

    @Test func freshSaltAndKeyEveryMessage() throws {
        let receiver = WebPushReceiverKeys.generate()
        let first = try WebPushEncryption.encrypt([1, 2, 3], for: receiver.subscriberKeys)
        let second = try WebPushEncryption.encrypt([1, 2, 3], for: receiver.subscriberKeys)
        #expect(first[0..<16] != second[0..<16])
        #expect(first[21..<86] != second[21..<86])
    }

    @Test func subscriberKeysRoundTripThroughBase64URL() throws {
        let receiver = WebPushReceiverKeys.generate()
        let keys = receiver.subscriberKeys
        let parsed = try WebPushSubscriberKeys(p256dh: keys.p256dhBase64URL, auth: keys.authBase64URL)
        #expect(parsed.publicKeyBytes == keys.publicKeyBytes)
        #expect(parsed.authSecret == keys.authSecret)
    }
}
