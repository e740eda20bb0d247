import KithPush

extension FuzzTarget {
    /// A Web Push message body (RFC 8188 header, RFC 8291 keys) decrypted with the receiver keys
    /// of the published `aes128gcm-padded` vector, so that vector's body decrypts.
    static let webPushMessage = FuzzTarget(name: "web-push-message", summary: "KithPush aes128gcm Web Push message decryption") { input in
        guard let keys = PushFuzzKeys.receiver else { return }
        _ = try? WebPushDecryption.decrypt(input, with: keys)
    }

    /// A VAPID `Authorization` header as the push service reads it, verified for the vector's
    /// audience; and the whitelist token and knock bodies the gateway reads.
    static let vapidAndKnocks = FuzzTarget(name: "vapid-and-knocks", summary: "KithPush VAPID headers, whitelist tokens and knock bodies") { input in
        if let text = FuzzProperty.text(input) {
            _ = try? VAPIDVerifier(audience: "http://127.0.0.1:18766").verify(headerValue: text, now: 1_760_000_000)
            _ = try? WhitelistToken(hex: text)
        }
        _ = try? WhitelistToken(bytes: input)
        _ = try? KnockBody(bytes: input)
    }
}

/// The receiver of `TestVectors/push/aes128gcm-padded.json` (private key 0x11 repeated, auth secret 0x00…0x0f).
enum PushFuzzKeys {
    static let receiver: WebPushReceiverKeys? = try? WebPushReceiverKeys(
        rawPrivateKey: [UInt8](repeating: 0x11, count: 32), authSecret: Array(0..<16))
}
