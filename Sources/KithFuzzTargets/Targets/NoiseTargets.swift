import Crypto
import KithSync

extension FuzzTarget {
    /// Handshake messages as a responder reads the first one (XX and IK) and as an initiator reads
    /// the answer to its own first message (the first input byte picks which).
    static let noiseHandshake = FuzzTarget(name: "noise-handshake", summary: "KithSync Noise XX and IK handshake messages") { input in
        guard let keys = NoiseFuzzKeys.make() else { return }
        let message = Array(input.dropFirst())
        switch (input.first ?? 0) % 4 {
        case 0: respond(pattern: "XX", to: message, keys: keys)
        case 1: respond(pattern: "IK", to: message, keys: keys)
        case 2: initiate(pattern: "XX", thenRead: message, keys: keys)
        default: initiate(pattern: "IK", thenRead: message, keys: keys)
        }
    }

    private static func respond(pattern: String, to message: [UInt8], keys: NoiseFuzzKeys) {
        guard var state = try? NoiseHandshakeState(
            protocolName: "Noise_\(pattern)" + NoiseHandshakeState.cipherSuiteSuffix, isInitiator: false, prologue: [],
            localStatic: keys.responder, localEphemeral: keys.ephemeral)
        else { return }
        guard (try? state.readMessage(message)) != nil else { return }
        _ = try? state.writeMessage(payload: [])
    }

    private static func initiate(pattern: String, thenRead message: [UInt8], keys: NoiseFuzzKeys) {
        let remote: [UInt8]? = pattern == "IK" ? Array(keys.responder.publicKey.rawRepresentation) : nil
        guard var state = try? NoiseHandshakeState(
            protocolName: "Noise_\(pattern)" + NoiseHandshakeState.cipherSuiteSuffix, isInitiator: true, prologue: [],
            localStatic: keys.initiator, localEphemeral: keys.ephemeral, remoteStatic: remote)
        else { return }
        guard (try? state.writeMessage(payload: [])) != nil else { return }
        guard (try? state.readMessage(message)) != nil else { return }
        if !state.isComplete { _ = try? state.writeMessage(payload: []) }
    }
}

/// Fixed keys for the handshake target (deterministic runs, so a crash reproduces).
struct NoiseFuzzKeys {
    let initiator: Curve25519.KeyAgreement.PrivateKey
    let responder: Curve25519.KeyAgreement.PrivateKey
    let ephemeral: Curve25519.KeyAgreement.PrivateKey

    static func make() -> NoiseFuzzKeys? {
        guard let initiator = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x11, count: 32)),
            let responder = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x22, count: 32)),
            let ephemeral = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x33, count: 32))
        else { return nil }
        return NoiseFuzzKeys(initiator: initiator, responder: responder, ephemeral: ephemeral)
    }
}
