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

/// The sync a knock triggers.
enum KnockSync {
    static func run(account: Account, host: String, port: Int, contact: FeedID, json: Bool) async throws {
        let record = try await account.contacts.record(contact)
        let agent = SyncAgent(account: account)
        let link: SecureLink
        do throws(SecureLinkError) {
            link = try await agent.initiate(dialing: { () async throws(SyncTransportError) -> any SyncTransport in
                try await TCPTransport.connect(host: host, port: port)
            }, contact: record)
        } catch {
            Output.error("kith: the sync after the knock failed: \(TerminalText.escaped(error.description))")
            return
        }
        _ = await SyncRun.session(link: link, agent: agent, json: json)
    }
}
