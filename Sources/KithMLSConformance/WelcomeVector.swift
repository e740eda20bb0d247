import KithMLS
/// A `welcome.json` case (RFC 9420 §12.4.3.1): decrypt a Welcome, verify the GroupInfo signature and confirmation tag.
public struct WelcomeVector: ConformanceVector {
    /// `welcome.json`.
    public static let fileName = "welcome.json"

    let cipher_suite: UInt16
    let init_priv: HexString
    let signer_pub: HexString
    let key_package: HexString
    let welcome: HexString

    /// Opens the Welcome and checks the GroupInfo; then re-seals it and opens the copy.
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            guard case .keyPackage(let keyPackage) = try MLSMessage(tlsEncoded: key_package.bytes).body else { throw ConformanceMismatch("key_package is not a KeyPackage") }
            guard case .welcome(let message) = try MLSMessage(tlsEncoded: welcome.bytes).body else { throw ConformanceMismatch("welcome is not a Welcome") }
            try Conformance.expect(keyPackage.verifySignature(suite: suite), "KeyPackage signature does not verify")
            let reference = keyPackage.reference(suite: suite)
            let secrets = try message.decryptGroupSecrets(suite: suite, keyPackageRef: reference, initPrivateKey: init_priv.bytes)
            try Conformance.expect(secrets.psks.isEmpty, "unexpected PSKs")
            let pskSecret = suite.zeroSecret
            let groupInfo = try message.decryptGroupInfo(suite: suite, joinerSecret: secrets.joinerSecret, pskSecret: pskSecret)
            try Conformance.expect(groupInfo.verifySignature(suite: suite, signerKey: signer_pub.bytes), "GroupInfo signature does not verify")
            let epoch = try EpochSecrets(suite: suite, joinerSecret: secrets.joinerSecret, pskSecret: pskSecret, context: groupInfo.groupContext)
            try Conformance.expectEqual("confirmation_tag",
                epoch.confirmationTag(confirmedTranscriptHash: groupInfo.groupContext.confirmedTranscriptHash), groupInfo.confirmationTag)

            let resealed = try Welcome.seal(suite: suite, groupInfo: groupInfo, joinerSecret: secrets.joinerSecret, pskSecret: pskSecret,
                                            recipients: [(keyPackage, secrets)])
            let reopened = try resealed.decryptGroupSecrets(suite: suite, keyPackageRef: reference, initPrivateKey: init_priv.bytes)
            try Conformance.expectEqual("resealed group secrets", reopened, secrets)
            try Conformance.expectEqual("resealed group info",
                try resealed.decryptGroupInfo(suite: suite, joinerSecret: reopened.joinerSecret, pskSecret: pskSecret), groupInfo)
        }
    }
}
