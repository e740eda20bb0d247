import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithTerminal

/// `kith personas`: this device's per-conversation identities (docs/GROUPS.md, "Personas").
struct PersonasCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "personas",
        abstract: "List your personas: per-conversation identities (id, feed, conversation, created, state).",
        discussion: """
            A persona is an identity of its own made for one conversation (`kith group create NAME --persona`, \
            `kith invite accept URL --persona`). Commands that name its group find it by themselves; \
            `--persona-id ID` acts as one explicitly (for example `kith pair create --persona-id ID` to sync with \
            the conversation's members). Leaving or exploding the conversation deletes the persona.
            """
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await Output.run {
            guard global.personaID == nil else { throw KithError.persona(.isPersona) }
            let personas = try await openMainAccount(global).personas.all()
            if global.json {
                let list: [JSONValue] = personas.map { persona in
                    var object = JSONObject()
                    object["id"] = .string(persona.id)
                    object["feed_id"] = .string(persona.feedID.string)
                    object["group_id"] = persona.groupID.map { .string($0.string) } ?? .null
                    object["conversation"] = persona.conversation.map { .string($0) } ?? .null
                    object["created"] = .integer(persona.createdAt)
                    object["expires"] = persona.expiresAt.map { .integer($0) } ?? .null
                    object["state"] = .string(persona.state.rawValue)
                    return .object(object)
                }
                var root = JSONObject()
                root["personas"] = .array(list)
                Output.json(.object(root))
                return
            }
            guard !personas.isEmpty else {
                Output.line("No personas. Make one with `kith group create NAME --persona` or `kith invite accept URL --persona`.")
                return
            }
            for persona in personas {
                let created = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(persona.createdAt)))
                let conversation = persona.conversation.map { TerminalText.escaped($0) } ?? persona.groupID?.string ?? "(joining)"
                Output.line("\(persona.id)  \(persona.state.rawValue)  \(conversation)  feed \(persona.feedID.string.prefix(8))…  created \(created)")
            }
        }
    }
}
