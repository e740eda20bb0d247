/// Why a persona operation failed (``Account/Personas``).
public enum PersonaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The account lives in memory: personas need a home directory for their sealed files.
    case needsHome
    /// No persona has this local id (`kith personas` lists them).
    case unknown(id: String)
    /// A persona file does not open with this device's seed or is malformed.
    case damaged(path: String, reason: String)
    /// This device already holds the most personas it keeps (``Account/Personas/maxPersonas``).
    case tooMany(limit: Int)
    /// The persona already holds a conversation: one persona, one conversation.
    case alreadyHasConversation(id: String)
    /// The operation is for the main account: this account is itself a persona.
    case isPersona

    public var description: String {
        switch self {
        case .needsHome: "personas need an account with a home directory"
        case .unknown(let id): "no persona \(id) on this device (list them with `kith personas`)"
        case .damaged(let path, let reason): "persona file \(path) is damaged: \(reason)"
        case .tooMany(let limit): "this device already holds \(limit) personas: delete one (leave or explode its conversation) first"
        case .alreadyHasConversation(let id): "persona \(id) already holds a conversation; each persona holds exactly one"
        case .isPersona: "this account is a persona: manage personas from the main account"
        }
    }
}
