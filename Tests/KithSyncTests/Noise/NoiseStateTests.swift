import Crypto
import KithSync
import Testing

@Suite("Noise state machines")
struct NoiseStateTests {
    @Test("unknown protocol names and modifiers are refused")
    func unsupportedNames() {
        #expect(throws: NoiseError.unsupportedProtocol("Noise_XX_448_ChaChaPoly_SHA256")) {
            try NoiseHandshakeState(protocolName: "Noise_XX_448_ChaChaPoly_SHA256", isInitiator: true, prologue: [])
        }
        #expect(throws: NoiseError.unsupportedProtocol("ZZ")) {
            try NoiseHandshakeState(protocolName: "Noise_ZZ_25519_ChaChaPoly_SHA256", isInitiator: true, prologue: [])
        }
        #expect(throws: NoiseError.unsupportedProtocol("NNpsk9")) { try NoiseHandshakePattern(named: "NNpsk9") }
        #expect(throws: NoiseError.unsupportedProtocol("NNpskX")) { try NoiseHandshakePattern(named: "NNpskX") }
    }

    @Test("psk modifiers insert psk tokens where the spec says")
    func pskPlacement() throws {
        #expect(try NoiseHandshakePattern(named: "NNpsk0").messages[0] == [.psk, .e])
        #expect(try NoiseHandshakePattern(named: "NNpsk2").messages[1] == [.e, .ee, .psk])
        #expect(try NoiseHandshakePattern(named: "NNpsk0+psk2").messages == [[.psk, .e], [.e, .ee, .psk]])
        #expect(try NoiseHandshakePattern(named: "XX").messages == [[.e], [.e, .ee, .s, .es], [.s, .se]])
        #expect(try NoiseHandshakePattern(named: "IK").responderPreMessage == [.s])
    }

    @Test("missing keys, wrong lengths and out-of-turn calls are refused")
    func misuse() throws {
        #expect(throws: NoiseError.missingKey("the remote static key")) {
            try NoiseHandshakeState(protocolName: "Noise_IK_25519_ChaChaPoly_SHA256", isInitiator: true, prologue: [],
                                    localStatic: Curve25519.KeyAgreement.PrivateKey())
        }
        #expect(throws: NoiseError.invalidKeyLength(31)) {
            try NoiseHandshakeState(protocolName: "Noise_NNpsk0_25519_ChaChaPoly_SHA256", isInitiator: true, prologue: [],
                                    preSharedKeys: [[UInt8](repeating: 0, count: 31)])
        }
        #expect(throws: NoiseError.missingKey("1 pre-shared keys")) {
            try NoiseHandshakeState(protocolName: "Noise_NNpsk0_25519_ChaChaPoly_SHA256", isInitiator: true, prologue: [])
        }
        var responder = try NoiseHandshakeState(protocolName: "Noise_NN_25519_ChaChaPoly_SHA256", isInitiator: false, prologue: [])
        #expect(throws: NoiseError.outOfTurn) { try responder.writeMessage(payload: []) }
        #expect(throws: NoiseError.messageTooShort) { try responder.readMessage([1, 2, 3]) }
        #expect(throws: NoiseError.handshakeIncomplete) { try responder.transportCiphers() }
        var initiator = try NoiseHandshakeState(protocolName: "Noise_XX_25519_ChaChaPoly_SHA256", isInitiator: true, prologue: [])
        #expect(throws: NoiseError.outOfTurn) { try initiator.readMessage([UInt8](repeating: 0, count: 64)) }
        _ = try initiator.writeMessage(payload: [])
        #expect(throws: NoiseError.outOfTurn) { try initiator.writeMessage(payload: []) }
    }

    @Test("different prologues make the handshake fail")
    func prologueBinding() throws {
        var initiator = try NoiseHandshakeState(protocolName: "Noise_NN_25519_ChaChaPoly_SHA256", isInitiator: true, prologue: [1])
        var responder = try NoiseHandshakeState(protocolName: "Noise_NN_25519_ChaChaPoly_SHA256", isInitiator: false, prologue: [2])
        _ = try responder.readMessage(try initiator.writeMessage(payload: []))
        let reply = try responder.writeMessage(payload: [])
        #expect(throws: NoiseError.authenticationFailed) { try initiator.readMessage(reply) }
    }

    @Test("a low-order public key fails key agreement")
    func lowOrderKey() throws {
        var responder = try NoiseHandshakeState(protocolName: "Noise_NN_25519_ChaChaPoly_SHA256", isInitiator: false, prologue: [])
        _ = try responder.readMessage([UInt8](repeating: 0, count: 32))
        #expect(throws: NoiseError.keyAgreementFailed) { try responder.writeMessage(payload: []) }
    }

    @Test("cipher state: reserved nonce, rekey and explicit nonces")
    func cipherState() throws {
        var sender = try NoiseCipherState(key: [UInt8](repeating: 1, count: 32))
        var receiver = try NoiseCipherState(key: [UInt8](repeating: 1, count: 32))
        sender.setNonce(NoiseCipherState.reservedNonce)
        #expect(throws: NoiseError.nonceExhausted) { try sender.encrypt(associatedData: [], plaintext: [1]) }
        sender.setNonce(5)
        let before = try sender.encrypt(associatedData: [9], plaintext: [1, 2, 3])
        receiver.setNonce(5)
        #expect(try receiver.decrypt(associatedData: [9], ciphertext: before) == [1, 2, 3])
        #expect(receiver.nonce == 6)
        #expect(throws: NoiseError.authenticationFailed) { try receiver.decrypt(associatedData: [9], ciphertext: before) }
        try sender.rekey()
        try receiver.rekey()
        receiver.setNonce(6)
        let after = try sender.encrypt(associatedData: [], plaintext: [1, 2, 3])
        #expect(try receiver.decrypt(associatedData: [], ciphertext: after) == [1, 2, 3])
        #expect(throws: NoiseError.invalidKeyLength(16)) { try NoiseCipherState(key: [UInt8](repeating: 0, count: 16)) }
        var keyless = NoiseCipherState()
        #expect(try keyless.encrypt(associatedData: [], plaintext: [4]) == [4])
    }
}
