import KithContinuity

extension FuzzTarget {
    /// The recovery formats a stranger or guardian controls: a share (binary and text), a request (binary and text)
    /// and a release, and a release opened with a fixed request key; the first two decoded shares are combined.
    static let recoveryFormats = FuzzTarget(name: "recovery-formats", summary: "KithContinuity recovery shares, requests and releases") { input in
        _ = try? RecoveryShare(encoded: input)
        _ = try? RecoveryRequest(encoded: input)
        if let release = try? RecoveryRelease(encoded: input), let key = RecoveryFuzzKeys.request {
            _ = try? key.open(release)
        }
        if let text = FuzzProperty.text(input) {
            _ = try? RecoveryShare(text: text)
            _ = try? RecoveryRequest(text: text)
            _ = try? RecoveryRelease(text: text)
        }
        let parts = FuzzProperty.parts(of: input).compactMap { try? RecoveryShare(encoded: $0) }
        if parts.count >= 2 { _ = try? RecoveryShareSet.combine(parts) }
    }
}

/// A request key made once per run for the release path: fuzzed releases reach the nonce check and the HPKE refusal
/// (a release that opens would need this run's public key).
enum RecoveryFuzzKeys {
    static let request: RecoveryRequestKey? = try? RecoveryRequestKey.make(ownerFeedID: [UInt8](repeating: 0x42, count: 32))
}
