/// HPKE in base mode (RFC 9180 §5.1.1, no PSK) for one KEM, KDF and AEAD and one `info` string.
///
/// The key-schedule context `mode || psk_id_hash || info_hash` depends only on `info`, so it is computed once here and shared
/// by every encryption under the same `info`: one UpdatePath encrypts to every copath resolution node under one context, and
/// one Welcome encrypts to every joiner under an `info` that holds the whole encrypted GroupInfo. Each operation is single-shot
/// (sequence number 0), which is how MLS uses HPKE.
struct HPKEBaseMode: Sendable {
    /// The KEM.
    let kem: KEMAlgorithm
    /// The KDF of the key schedule.
    let kdf: HashAlgorithm
    /// The AEAD.
    let aead: AEADAlgorithm
    /// `"HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2)`.
    private let suiteID: [UInt8]
    /// `key_schedule_context` for mode_base and this `info`.
    private let keyScheduleContext: [UInt8]

    /// Prepares the key schedule for `info`.
    init(kem: KEMAlgorithm, kdf: HashAlgorithm, aead: AEADAlgorithm, info: [UInt8]) {
        self.kem = kem
        self.kdf = kdf
        self.aead = aead
        var suiteID = Array("HPKE".utf8)
        for identifier in [kem.identifier, kdf.hpkeIdentifier, aead.hpkeIdentifier] {
            suiteID.append(UInt8(identifier >> 8))
            suiteID.append(UInt8(identifier & 0xFF))
        }
        self.suiteID = suiteID
        let pskIDHash = kdf.labeledExtract(suiteID: suiteID, salt: [], label: "psk_id_hash", ikm: [])
        let infoHash = kdf.labeledExtract(suiteID: suiteID, salt: [], label: "info_hash", ikm: info)
        keyScheduleContext = [Self.modeBase] + pskIDHash + infoHash
    }

    /// `mode_base`.
    private static let modeBase: UInt8 = 0x00

    /// `SealBase(pkR, info, aad, pt)`: a fresh encapsulation and the AEAD ciphertext of `plaintext`.
    func seal(publicKey: [UInt8], aad: [UInt8], plaintext: [UInt8]) throws -> HPKECiphertext {
        let encapsulation = try kem.encapsulate(publicKey: publicKey)
        let (key, nonce) = try keyAndNonce(sharedSecret: encapsulation.sharedSecret)
        return HPKECiphertext(kemOutput: encapsulation.encapsulatedKey, ciphertext: try aead.seal(key: key, nonce: nonce, aad: aad, plaintext: plaintext))
    }

    /// `OpenBase(enc, skR, info, aad, ct)`; throws ``MLSCryptoError/decryptionFailed(_:)`` when the ciphertext does not authenticate.
    func open(privateKey: [UInt8], aad: [UInt8], ciphertext: HPKECiphertext) throws -> [UInt8] {
        let sharedSecret = try kem.decapsulate(encapsulatedKey: ciphertext.kemOutput, privateKey: privateKey)
        let (key, nonce) = try keyAndNonce(sharedSecret: sharedSecret)
        do {
            return try aead.open(key: key, nonce: nonce, aad: aad, ciphertext: ciphertext.ciphertext)
        } catch {
            throw MLSCryptoError.decryptionFailed("HPKE open failed")
        }
    }

    /// `SetupBaseS` followed by `Export(exporter_context, L)`: the encapsulated key and the exported secret.
    func exportSender(publicKey: [UInt8], exporterContext: [UInt8], length: Int) throws -> (kemOutput: [UInt8], secret: [UInt8]) {
        let encapsulation = try kem.encapsulate(publicKey: publicKey)
        return (encapsulation.encapsulatedKey, try export(sharedSecret: encapsulation.sharedSecret, exporterContext: exporterContext, length: length))
    }

    /// `SetupBaseR` followed by `Export(exporter_context, L)`.
    func exportReceiver(privateKey: [UInt8], kemOutput: [UInt8], exporterContext: [UInt8], length: Int) throws -> [UInt8] {
        let sharedSecret = try kem.decapsulate(encapsulatedKey: kemOutput, privateKey: privateKey)
        return try export(sharedSecret: sharedSecret, exporterContext: exporterContext, length: length)
    }

    // MARK: Key schedule

    /// `secret = LabeledExtract(shared_secret, "secret", psk)` with the empty PSK.
    private func scheduleSecret(_ sharedSecret: [UInt8]) -> [UInt8] {
        kdf.labeledExtract(suiteID: suiteID, salt: sharedSecret, label: "secret", ikm: [])
    }

    private func keyAndNonce(sharedSecret: [UInt8]) throws -> (key: [UInt8], nonce: [UInt8]) {
        let secret = scheduleSecret(sharedSecret)
        let key = try kdf.labeledExpand(suiteID: suiteID, prk: secret, label: "key", info: keyScheduleContext, length: aead.keySize)
        let nonce = try kdf.labeledExpand(suiteID: suiteID, prk: secret, label: "base_nonce", info: keyScheduleContext, length: aead.nonceSize)
        return (key, nonce)
    }

    private func export(sharedSecret: [UInt8], exporterContext: [UInt8], length: Int) throws -> [UInt8] {
        let secret = scheduleSecret(sharedSecret)
        let exporterSecret = try kdf.labeledExpand(suiteID: suiteID, prk: secret, label: "exp", info: keyScheduleContext, length: kdf.outputSize)
        guard length <= 255 * kdf.outputSize else { throw MLSCryptoError.invalidLength("HPKE export of \(length) bytes") }
        return try kdf.labeledExpand(suiteID: suiteID, prk: exporterSecret, label: "sec", info: exporterContext, length: length)
    }
}
