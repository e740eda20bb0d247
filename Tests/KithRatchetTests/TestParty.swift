import Crypto
import KithIdentity
import KithRatchet
import Synchronization

/// Deterministic test identities and injectable entropy.
struct TestParty {
    let identitySeed: [UInt8]
    let dhPrivate: [UInt8]
    let pqSeed: [UInt8]
    let keys: LocalIdentityKeys

    /// A party whose keys are SHA-256/SHA-512 of its name (fixed across runs).
    init(name: String) throws {
        identitySeed = Array(SHA256.hash(data: Array("\(name) identity".utf8)))
        dhPrivate = Array(SHA256.hash(data: Array("\(name) dh".utf8)))
        pqSeed = Array(SHA512.hash(data: Array("\(name) pq".utf8)))
        keys = try LocalIdentityKeys(
            identityKey: try Curve25519.Signing.PrivateKey(rawRepresentation: identitySeed),
            dhKey: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: dhPrivate),
            pqKey: try MLKEM768.PrivateKey(seedRepresentation: pqSeed, publicKey: nil)
        )
    }

    var feedID: String { keys.feedID }
    var feed: FeedID { keys.feed }
    var peer: PeerIdentity { get throws { try keys.peerIdentity } }
    var signedPrekeyPublic: [UInt8] { Array(keys.dhKey.publicKey.rawRepresentation) }

    func bundle(oneTimePrekey: OneTimePrekeyPublic? = nil) throws -> PrekeyBundle {
        try PrekeyBundle(peer: try peer, signedPrekey: signedPrekeyPublic, oneTimePrekey: oneTimePrekey)
    }

    func context(to other: TestParty, sequence: UInt64) throws -> DirectMessageContext {
        try DirectMessageContext.direct(from: feedID, to: other.feedID, sequence: sequence)
    }
}

/// Entropy that can record what it hands out (vector generation) or replay recorded values.
final class ScriptedEntropy: RatchetEntropySource {
    struct Script: Sendable {
        var x25519Keys: [[UInt8]] = []
        var encapsulations: [(ciphertext: [UInt8], sharedSecret: [UInt8])] = []
    }

    private let state: Mutex<(script: Script, replay: Bool, keyIndex: Int, encapsulationIndex: Int)>

    /// Records fresh system randomness.
    init() { state = Mutex((Script(), false, 0, 0)) }

    /// Replays `script` in order.
    init(replaying script: Script) { state = Mutex((script, true, 0, 0)) }

    var recorded: Script { state.withLock { $0.script } }

    func newX25519PrivateKey() throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey {
        let raw: [UInt8]? = state.withLock { state in
            if state.replay {
                guard state.keyIndex < state.script.x25519Keys.count else { return nil }
                defer { state.keyIndex += 1 }
                return state.script.x25519Keys[state.keyIndex]
            }
            let key = Array(Curve25519.KeyAgreement.PrivateKey().rawRepresentation)
            state.script.x25519Keys.append(key)
            return key
        }
        guard let raw else { throw .malformed("scripted entropy exhausted") }
        return try X25519Agreement.privateKey(raw)
    }

    func encapsulate(to publicKey: [UInt8]) throws(RatchetError) -> (ciphertext: [UInt8], sharedSecret: [UInt8]) {
        let replayed: (ciphertext: [UInt8], sharedSecret: [UInt8])?? = state.withLock { state in
            guard state.replay else { return .some(nil) }
            guard state.encapsulationIndex < state.script.encapsulations.count else { return nil }
            defer { state.encapsulationIndex += 1 }
            return .some(state.script.encapsulations[state.encapsulationIndex])
        }
        switch replayed {
        case .none: throw .malformed("scripted entropy exhausted")
        case .some(.some(let value)): return value
        case .some(.none):
            let value = try SystemEntropySource().encapsulate(to: publicKey)
            state.withLock { $0.script.encapsulations.append(value) }
            return value
        }
    }
}

/// A minimal deterministic RNG for shuffles inside property tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Shared fixtures.
enum Fixtures {
    static func alice() throws -> TestParty { try TestParty(name: "alice") }
    static func bob() throws -> TestParty { try TestParty(name: "bob") }
    static let now: UInt64 = 1_800_000_000
    /// Feed ids of contacts that only appear as prekey-pool keys.
    static let peer = FeedID(ed25519PublicKey: [UInt8](repeating: 7, count: 32))
    static let otherPeer = FeedID(ed25519PublicKey: [UInt8](repeating: 8, count: 32))
}
