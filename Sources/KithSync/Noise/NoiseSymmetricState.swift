import Crypto

/// Noise SymmetricState with SHA-256 (Noise spec section 5.2): chaining key, handshake hash, cipher.
public struct NoiseSymmetricState: Sendable {
    /// The chaining key `ck`.
    private(set) var chainingKey: [UInt8]
    /// The handshake hash `h`.
    public private(set) var handshakeHash: [UInt8]
    /// The handshake cipher.
    private(set) var cipher = NoiseCipherState()

    /// InitializeSymmetric(protocol_name).
    public init(protocolName: String) {
        let name = Array(protocolName.utf8)
        if name.count <= 32 {
            handshakeHash = name + [UInt8](repeating: 0, count: 32 - name.count)
        } else {
            handshakeHash = Array(SHA256.hash(data: name))
        }
        chainingKey = handshakeHash
    }

    /// MixKey(input_key_material).
    public mutating func mixKey(_ inputKeyMaterial: [UInt8]) throws(NoiseError) {
        let outputs = Self.hkdf(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial, count: 2)
        chainingKey = outputs[0]
        cipher = try NoiseCipherState(key: outputs[1])
    }

    /// MixHash(data).
    public mutating func mixHash(_ data: [UInt8]) {
        var hasher = SHA256()
        hasher.update(data: handshakeHash)
        hasher.update(data: data)
        handshakeHash = Array(hasher.finalize())
    }

    /// MixKeyAndHash(input_key_material), used for pre-shared keys.
    public mutating func mixKeyAndHash(_ inputKeyMaterial: [UInt8]) throws(NoiseError) {
        let outputs = Self.hkdf(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial, count: 3)
        chainingKey = outputs[0]
        mixHash(outputs[1])
        cipher = try NoiseCipherState(key: outputs[2])
    }

    /// EncryptAndHash(plaintext).
    public mutating func encryptAndHash(_ plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        let ciphertext = try cipher.encrypt(associatedData: handshakeHash, plaintext: plaintext)
        mixHash(ciphertext)
        return ciphertext
    }

    /// DecryptAndHash(ciphertext).
    public mutating func decryptAndHash(_ ciphertext: [UInt8]) throws(NoiseError) -> [UInt8] {
        let plaintext = try cipher.decrypt(associatedData: handshakeHash, ciphertext: ciphertext)
        mixHash(ciphertext)
        return plaintext
    }

    /// True once a key has been mixed in (static keys and payloads are then encrypted).
    public var hasKey: Bool { cipher.hasKey }

    /// Split(): the initiator-to-responder and responder-to-initiator transport ciphers.
    public func split() throws(NoiseError) -> (initiatorToResponder: NoiseCipherState, responderToInitiator: NoiseCipherState) {
        let outputs = Self.hkdf(chainingKey: chainingKey, inputKeyMaterial: [], count: 2)
        return (try NoiseCipherState(key: outputs[0]), try NoiseCipherState(key: outputs[1]))
    }

    /// HKDF(chaining_key, input_key_material, num_outputs) of Noise spec section 4.3 with HMAC-SHA256.
    static func hkdf(chainingKey: [UInt8], inputKeyMaterial: [UInt8], count: Int) -> [[UInt8]] {
        let tempKey = SymmetricKey(data: Array(HMAC<SHA256>.authenticationCode(for: inputKeyMaterial, using: SymmetricKey(data: chainingKey))))
        var outputs: [[UInt8]] = []
        var previous: [UInt8] = []
        for index in 1...count {
            previous = Array(HMAC<SHA256>.authenticationCode(for: previous + [UInt8(index)], using: tempKey))
            outputs.append(previous)
        }
        return outputs
    }
}
