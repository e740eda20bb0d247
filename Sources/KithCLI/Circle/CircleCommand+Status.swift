import ArgumentParser
import Kith
import KithCanonical
import KithStore
import KithTerminal

extension CircleCommand {
    /// `kith circle status [--json]`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the pools and pending exchanges or revocations per contact.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let members = try await account.circle.status()
                let contacts = try await account.contacts.all()
                func name(_ feed: String) -> String { contacts.first { $0.feedID.string == feed }?.shownName ?? feed }
                if global.json {
                    Output.json(.array(members.map { member in
                        var object = JSONObject()
                        object["contact"] = .string(member.feedID)
                        object["name"] = .string(name(member.feedID))
                        object["intent"] = switch member.intent {
                        case .exchange(let size)?: .string("exchange:\(size)")
                        case .revoke?: .string("revoke")
                        case .confirm(let size)?: .string("confirm:\(size)")
                        case nil: .null
                        }
                        if let pools = member.pools {
                            object["state"] = .string(pools.state.rawValue)
                            object["exchange_id"] = .string(pools.exchangeID)
                            object["keys_to_send"] = .integer(Int64(pools.peerRemaining))
                            object["keys_to_send_capacity"] = .integer(Int64(pools.peerCapacity))
                            object["keys_to_receive"] = .integer(Int64(pools.ownRemaining))
                            object["keys_to_receive_capacity"] = .integer(Int64(pools.ownCapacity))
                            object["needs_renewal"] = .bool(pools.needsRenewal)
                        } else {
                            object["state"] = .string("none")
                        }
                        return .object(object)
                    }))
                    return
                }
                if members.isEmpty { Output.line("No inner circle yet. Try: kith circle add CONTACT, then sync with them in person.") }
                for member in members {
                    var line = TerminalText.escaped(name(member.feedID)) + ": "
                    if let pools = member.pools {
                        line += "\(pools.state.rawValue), \(pools.peerRemaining)/\(pools.peerCapacity) keys to send, \(pools.ownRemaining)/\(pools.ownCapacity) to receive"
                        if pools.needsRenewal { line += " (below 10 %: renew at your next meeting)" }
                    } else {
                        line += "no pools"
                    }
                    switch member.intent {
                    case .exchange(let size)?: line += "; exchange of \(size) keys armed for the next sync"
                    case .revoke?: line += "; revoked, they are told at the next sync"
                    case .confirm?: line += "; exchange answered, confirmed at the next sync"
                    case nil: break
                    }
                    Output.line(line)
                }
            }
        }
    }
}
