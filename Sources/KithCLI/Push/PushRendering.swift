import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithDemo
import KithFeed
import KithIdentity
import KithPushClient
import KithStore
import KithSync
import KithTerminal

/// Rendering of push state.
enum PushRendering {
    static func registration(_ record: PushRegistrationRecord) -> JSONObject {
        var object = JSONObject()
        object["gateway"] = .string(record.gatewayURL)
        object["push_service"] = .string(record.pushServiceURL)
        object["account"] = .string(record.accountUsername)
        return object
    }

    static func refilled(_ refilled: [PushFlows.Refilled]) -> JSONValue {
        .array(refilled.map { entry in
            var object = JSONObject()
            object["feed_id"] = .string(entry.contact.string)
            object["name"] = .string(entry.name)
            object["tokens"] = .integer(Int64(entry.count))
            return .object(object)
        })
    }

    static func printRefilled(_ refilled: [PushFlows.Refilled]) {
        if refilled.isEmpty { Output.line("Every contact holds enough of your push tokens.") }
        for entry in refilled {
            Output.line("Queued \(entry.count) push tokens for \(TerminalText.escaped(entry.name)) (a push_tokens direct message; it travels with your next sync).")
        }
    }

    static func printKnock(_ knock: PushFlows.HeardKnock, json: Bool) {
        if json {
            var object = JSONObject()
            object["type"] = .string("knock")
            object["feed_id"] = knock.contact.map { .string($0.string) } ?? .null
            object["name"] = knock.name.map { .string($0) } ?? .null
            object["data"] = knock.data.map { .string($0) } ?? .null
            object["replayed"] = .bool(knock.replayed)
            Output.json(.object(object))
        } else if let name = knock.name {
            Output.line("«\(TerminalText.escaped(name))» knocked" + (knock.replayed ? " (with a token already used)" : ""))
        } else {
            Output.line("someone knocked with a token you did not give (or revoked): ignored")
        }
    }
}
