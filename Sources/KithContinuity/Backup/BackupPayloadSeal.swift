/// A seam for tests and fuzz targets (package access): a backup file whose payload plaintext is exactly the bytes
/// given, sealed correctly under a recovery key with fixed header randomness, so that whatever a reader does with
/// the decrypted records can be exercised with any payload (a writer never produces a malformed one).
package enum BackupPayloadSeal {
    /// The file id of every file `seal` makes (bytes 41…56; the manifest's `backup_id` is its hex).
    package static let fileID: [UInt8] = (0..<16).map { UInt8(41 + $0) }

    /// A file with header (salt bytes 9…40, file id `fileID`, nonce prefix 57…63), key check and `payload` in
    /// STREAM chunks, exactly as a writer would seal it.
    package static func seal(payload: [UInt8], key: RecoveryKey) throws(BackupError) -> [UInt8] {
        let header = BackupHeader(kdf: .recoveryKey, salt: (0..<32).map { UInt8(9 + $0) }, fileID: fileID,
                                  noncePrefix: (0..<7).map { UInt8(57 + $0) })
        let (cipher, check) = try BackupSecret.recoveryKey(key).cipher(for: header)
        var out = header.encoded + check
        var start = 0
        var counter: UInt64 = 0
        while payload.count - start > BackupLimits.chunkSize {
            out += try cipher.seal(payload[start..<start + BackupLimits.chunkSize], counter: counter, isLast: false)
            start += BackupLimits.chunkSize
            counter += 1
        }
        out += try cipher.seal(payload[start...], counter: counter, isLast: true)
        return out
    }
}
