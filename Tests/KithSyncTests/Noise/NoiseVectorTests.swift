import Crypto
import Foundation
import KithSync
import KithTestSupport
import Testing

/// One cacophony vector from `Tests/Vectors/noise/noise_25519_chachapoly_sha256.json`.
struct NoiseVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Message: Decodable, Sendable {
        var payload: String
        var ciphertext: String
    }

    var protocol_name: String
    var init_prologue: String
    var init_ephemeral: String
    var init_static: String?
    var init_remote_static: String?
    var init_psks: [String]?
    var resp_prologue: String
    var resp_ephemeral: String?
    var resp_static: String?
    var resp_remote_static: String?
    var resp_psks: [String]?
    var handshake_hash: String
    var messages: [Message]

    var testDescription: String { protocol_name }

    static func load() throws -> [NoiseVector] {
        struct File: Decodable { var vectors: [NoiseVector] }
        let data = try TestPaths.officialVector("noise/noise_25519_chachapoly_sha256.json")
        return try JSONDecoder().decode(File.self, from: data).vectors
    }
}

private func bytes(_ hex: String?) throws -> [UInt8]? {
    guard let hex else { return nil }
    let decoded: [UInt8] = try #require(TestPaths.hex(hex))
    return decoded
}

private func privateKey(_ hex: String?) throws -> Curve25519.KeyAgreement.PrivateKey? {
    guard let raw = try bytes(hex) else { return nil }
    return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw)
}

@Suite("Noise test vectors (cacophony, 25519_ChaChaPoly_SHA256)")
struct NoiseVectorTests {
    @Test("all 59 vectors are present, including XX and IK")
    func vectorFileCoversRequiredPatterns() throws {
        let names = Set(try NoiseVector.load().map(\.protocol_name))
        #expect(names.count == 59)
        #expect(names.contains("Noise_XX_25519_ChaChaPoly_SHA256"))
        #expect(names.contains("Noise_IK_25519_ChaChaPoly_SHA256"))
    }

    @Test("reproduces every handshake and transport ciphertext", arguments: try NoiseVector.load())
    func vector(_ vector: NoiseVector) throws {
        var initiator = try NoiseHandshakeState(
            protocolName: vector.protocol_name,
            isInitiator: true,
            prologue: try #require(try bytes(vector.init_prologue)),
            localStatic: try privateKey(vector.init_static),
            localEphemeral: try privateKey(vector.init_ephemeral),
            remoteStatic: try bytes(vector.init_remote_static),
            preSharedKeys: try (vector.init_psks ?? []).map { try #require(TestPaths.hex($0)) }
        )
        var responder = try NoiseHandshakeState(
            protocolName: vector.protocol_name,
            isInitiator: false,
            prologue: try #require(try bytes(vector.resp_prologue)),
            localStatic: try privateKey(vector.resp_static),
            localEphemeral: try privateKey(vector.resp_ephemeral),
            remoteStatic: try bytes(vector.resp_remote_static),
            preSharedKeys: try (vector.resp_psks ?? []).map { try #require(TestPaths.hex($0)) }
        )
        var initiatorCiphers: NoiseTransportCiphers?
        var responderCiphers: NoiseTransportCiphers?
        for (index, message) in vector.messages.enumerated() {
            let payload = try #require(TestPaths.hex(message.payload))
            let expected = try #require(TestPaths.hex(message.ciphertext))
            let initiatorSends = initiator.pattern.isOneWay || index % 2 == 0
            if !initiator.isComplete {
                if initiatorSends {
                    let written = try initiator.writeMessage(payload: payload)
                    #expect(TestPaths.hexString(written) == message.ciphertext, "message \(index)")
                    #expect(try responder.readMessage(written) == payload)
                } else {
                    let written = try responder.writeMessage(payload: payload)
                    #expect(TestPaths.hexString(written) == message.ciphertext, "message \(index)")
                    #expect(try initiator.readMessage(written) == payload)
                }
                if initiator.isComplete {
                    #expect(responder.isComplete)
                    #expect(TestPaths.hexString(initiator.handshakeHash) == vector.handshake_hash)
                    #expect(TestPaths.hexString(responder.handshakeHash) == vector.handshake_hash)
                    initiatorCiphers = try initiator.transportCiphers()
                    responderCiphers = try responder.transportCiphers()
                }
                continue
            }
            var sender = try #require(initiatorSends ? initiatorCiphers : responderCiphers)
            var receiver = try #require(initiatorSends ? responderCiphers : initiatorCiphers)
            let sealed = try sender.sending.encrypt(associatedData: [], plaintext: payload)
            #expect(sealed == expected, "transport message \(index)")
            #expect(try receiver.receiving.decrypt(associatedData: [], ciphertext: sealed) == payload)
            if initiatorSends {
                initiatorCiphers = sender; responderCiphers = receiver
            } else {
                responderCiphers = sender; initiatorCiphers = receiver
            }
        }
        #expect(initiator.isComplete)
    }
}
