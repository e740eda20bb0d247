/// A Noise handshake pattern (Noise spec section 7): pre-messages and message token lists.
///
/// Messages alternate initiator → responder, responder → initiator, starting with the initiator.
/// Every fundamental, deferred and `psk`-modified pattern of the spec is available by name.
public struct NoiseHandshakePattern: Hashable, Sendable {
    /// A handshake token.
    public enum Token: String, Hashable, Sendable {
        /// Ephemeral public key.
        case e
        /// Static public key.
        case s
        /// DH(ephemeral, remote ephemeral).
        case ee
        /// DH between the initiator's ephemeral and the responder's static.
        case es
        /// DH between the initiator's static and the responder's ephemeral.
        case se
        /// DH(static, remote static).
        case ss
        /// Mix the next pre-shared key.
        case psk
    }

    /// The pattern name, modifiers included (for example `XXpsk3`).
    public let name: String
    /// Keys the initiator's pre-message declares (known to the responder in advance).
    public let initiatorPreMessage: [Token]
    /// Keys the responder's pre-message declares (known to the initiator in advance).
    public let responderPreMessage: [Token]
    /// Token lists of the handshake messages.
    public let messages: [[Token]]

    /// True for the one-way patterns (N, K, X and their psk variants): only the initiator sends.
    public var isOneWay: Bool { messages.count == 1 }

    /// True when any message carries a `psk` token.
    public var usesPreSharedKeys: Bool { messages.contains { $0.contains(.psk) } }

    /// Looks a pattern up by name, applying `pskN` modifiers joined by `+` (e.g. `IKpsk2`, `NNpsk0+psk2`).
    /// - Throws: ``NoiseError/unsupportedProtocol(_:)`` for an unknown pattern or modifier.
    public init(named name: String) throws(NoiseError) {
        var base = name
        var modifiers: [String] = []
        if let range = name.firstRange(of: "psk") {
            base = String(name[..<range.lowerBound])
            modifiers = name[range.lowerBound...].split(separator: "+").map(String.init)
        }
        guard let definition = Self.fundamental[base] else { throw .unsupportedProtocol(name) }
        var messages = definition.messages.map { $0.split(separator: " ").compactMap { Token(rawValue: String($0)) } }
        for modifier in modifiers {
            guard modifier.hasPrefix("psk"), let position = Int(modifier.dropFirst(3)), position <= messages.count else {
                throw .unsupportedProtocol(name)
            }
            if position == 0 {
                messages[0].insert(.psk, at: 0)
            } else {
                messages[position - 1].append(.psk)
            }
        }
        self.name = name
        self.messages = messages
        self.initiatorPreMessage = definition.initiatorPre.split(separator: " ").compactMap { Token(rawValue: String($0)) }
        self.responderPreMessage = definition.responderPre.split(separator: " ").compactMap { Token(rawValue: String($0)) }
    }

    private struct Definition {
        var initiatorPre: String
        var responderPre: String
        var messages: [String]
    }

    private static let fundamental: [String: Definition] = [
        // One-way (spec 7.4)
        "N": Definition(initiatorPre: "", responderPre: "s", messages: ["e es"]),
        "K": Definition(initiatorPre: "s", responderPre: "s", messages: ["e es ss"]),
        "X": Definition(initiatorPre: "", responderPre: "s", messages: ["e es s ss"]),
        // Interactive (spec 7.5)
        "NN": Definition(initiatorPre: "", responderPre: "", messages: ["e", "e ee"]),
        "NK": Definition(initiatorPre: "", responderPre: "s", messages: ["e es", "e ee"]),
        "NX": Definition(initiatorPre: "", responderPre: "", messages: ["e", "e ee s es"]),
        "KN": Definition(initiatorPre: "s", responderPre: "", messages: ["e", "e ee se"]),
        "KK": Definition(initiatorPre: "s", responderPre: "s", messages: ["e es ss", "e ee se"]),
        "KX": Definition(initiatorPre: "s", responderPre: "", messages: ["e", "e ee se s es"]),
        "XN": Definition(initiatorPre: "", responderPre: "", messages: ["e", "e ee", "s se"]),
        "XK": Definition(initiatorPre: "", responderPre: "s", messages: ["e es", "e ee", "s se"]),
        "XX": Definition(initiatorPre: "", responderPre: "", messages: ["e", "e ee s es", "s se"]),
        "IN": Definition(initiatorPre: "", responderPre: "", messages: ["e s", "e ee se"]),
        "IK": Definition(initiatorPre: "", responderPre: "s", messages: ["e es s ss", "e ee se"]),
        "IX": Definition(initiatorPre: "", responderPre: "", messages: ["e s", "e ee se s es"]),
        // Deferred (spec 18.1)
        "NK1": Definition(initiatorPre: "", responderPre: "s", messages: ["e", "e ee es"]),
        "NX1": Definition(initiatorPre: "", responderPre: "", messages: ["e", "e ee s", "es"]),
        "X1N": Definition(initiatorPre: "", responderPre: "", messages: ["e", "e ee", "s", "se"]),
        "X1K": Definition(initiatorPre: "", responderPre: "s", messages: ["e es", "e ee", "s", "se"]),
        "XK1": Definition(initiatorPre: "", responderPre: "s", messages: ["e", "e ee es", "s se"]),
        "X1K1": Definition(initiatorPre: "", responderPre: "s", messages: ["e", "e ee es", "s", "se"]),
        "X1X": Definition(initiatorPre: "", responderPre: "", messages: ["e", "e ee s es", "s", "se"]),
        "XX1": Definition(initiatorPre: "", responderPre: "", messages: ["e", "e ee s", "es s se"]),
        "X1X1": Definition(initiatorPre: "", responderPre: "", messages: ["e", "e ee s", "es s", "se"]),
        "K1N": Definition(initiatorPre: "s", responderPre: "", messages: ["e", "e ee", "se"]),
        "K1K": Definition(initiatorPre: "s", responderPre: "s", messages: ["e es", "e ee", "se"]),
        "KK1": Definition(initiatorPre: "s", responderPre: "s", messages: ["e", "e ee se es"]),
        "K1K1": Definition(initiatorPre: "s", responderPre: "s", messages: ["e", "e ee es", "se"]),
        "K1X": Definition(initiatorPre: "s", responderPre: "", messages: ["e", "e ee s es", "se"]),
        "KX1": Definition(initiatorPre: "s", responderPre: "", messages: ["e", "e ee se s", "es"]),
        "K1X1": Definition(initiatorPre: "s", responderPre: "", messages: ["e", "e ee s", "se es"]),
        "I1N": Definition(initiatorPre: "", responderPre: "", messages: ["e s", "e ee", "se"]),
        "I1K": Definition(initiatorPre: "", responderPre: "s", messages: ["e es s", "e ee", "se"]),
        "IK1": Definition(initiatorPre: "", responderPre: "s", messages: ["e s", "e ee se es"]),
        "I1K1": Definition(initiatorPre: "", responderPre: "s", messages: ["e s", "e ee es", "se"]),
        "I1X": Definition(initiatorPre: "", responderPre: "", messages: ["e s", "e ee s es", "se"]),
        "IX1": Definition(initiatorPre: "", responderPre: "", messages: ["e s", "e ee se s", "es"]),
        "I1X1": Definition(initiatorPre: "", responderPre: "", messages: ["e s", "e ee s", "se es"]),
    ]
}
