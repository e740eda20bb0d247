import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithRendezvous
import KithSync
import KithTDF
import KithTerminal

/// What `kith pair` shows of the one-time messages the peer sends on the relay as bare NanoTDFs
/// (the relay router's output, opened once with the inner-circle pool key they name).
enum RelayedOneTimeOutput {
    static func receiver(_ account: Account, json: Bool) -> any NanoTDFReceiver {
        account.circle.relayedReceiver { outcome in
            switch outcome {
            case .success(let message):
                let name = (try? await account.contacts.record(message.contact))?.shownName ?? message.contact.string
                if json {
                    var object = JSONObject()
                    object["relayed_one_time"] = .object(["contact": .string(message.contact.string), "name": .string(name), "text": .string(message.post.body)])
                    Output.json(.object(object))
                } else {
                    Output.line("«\(TerminalText.escaped(name))» (one-time, over the relay): \(TerminalText.escaped(message.post.body))")
                }
            case .failure(let error):
                Output.error("kith: a one-time message on the relay was refused: \(TerminalText.escaped(error.description))")
            }
        }
    }
}
