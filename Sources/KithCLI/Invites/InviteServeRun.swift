import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithGroups
import KithInvites
import KithRendezvous
import KithTerminal

/// The relay side of `kith invite accept` (stranger joins) and `kith invite serve`: pairing by the invite's join
/// code on the invite's server, the blind relay, then the invite exchange of the facade.
enum InviteServeRun {
    /// The join code an invite made with `--via` offers: a claimed code (``JoinCodeClaim``) with a fresh random nonce,
    /// committing to the secret this identity derives from that nonce, so only this identity can offer it.
    static func claimedJoinCode(for account: Account) -> String {
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<JoinCodeClaim.nonceBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        // Both sizes are right by construction, so the code always forms.
        return JoinCodeClaim.code(nonce: nonce, secret: account.invites.joinCodeClaimSecret(nonce: nonce))?.text ?? ""
    }

    /// The `claim` proving `code` is this identity's, nil for an ordinary code (an invite made before claimed codes, or
    /// with `--join-code`); throws for a claimed code this identity did not make.
    static func claim(of code: JoinCode, account: Account) throws -> String? {
        guard JoinCodeClaim.isClaimed(code) else { return nil }
        guard let nonce = JoinCodeClaim.nonce(of: code) else { throw KithError.input(.invalid("the invite's join code is malformed")) }
        let claim = JoinCodeClaim.claim(of: account.invites.joinCodeClaimSecret(nonce: nonce))
        guard JoinCodeClaim.verifies(claim: claim, for: code) else {
            throw KithError.input(.invalid("this invite's join code was not made by this identity, so it cannot offer it"))
        }
        return claim
    }

    /// How long a joiner that took the code has to come into the room before the code is offered again.
    static let joinerArrival: Duration = .seconds(15)

    /// The pairing and join code of an invite's reach.
    static func relay(of server: String?, joinCode: String?) throws -> (RelayPairing, JoinCode) {
        guard let server, let joinCode else {
            throw KithError.input(.invalid("this invite carries its creator's card but no server to reach it; ask for an invite made with `kith invite create --via SERVER_URL`, or meet and exchange cards"))
        }
        guard let code = JoinCode(joinCode) else { throw KithError.input(.invalid("the invite's join code is malformed")) }
        do throws(RelayError) {
            return (try RelayPairing(serverURL: server), code)
        } catch {
            throw KithError.input(.invalid("the invite's server: \(error.description)"))
        }
    }

    /// `kith invite accept` for a creator never met: checks the invite and its card, accepts the join code on the
    /// invite's server, runs the exchange over the relay, reports the outcome.
    ///
    /// `joined`, when given, runs once the group is joined (before anything is printed) and returns members for the
    /// JSON answer (`kith invite accept --persona` records the persona's conversation there).
    static func acceptAsStranger(
        account: Account, text: String, timeout: Int, json: Bool, joined: ((GroupID) async throws -> [(String, JSONValue)])? = nil
    ) async throws {
        guard (1...86_400).contains(timeout) else { throw KithError.input(.invalid("--timeout must be between 1 and 86400 seconds")) }
        let invite = try await account.invites.prepareStrangerJoin(text)
        let (pairing, code) = try relay(of: invite.server, joinCode: invite.joinCode)
        let name = TerminalText.escaped(invite.creatorCard.displayName)
        Output.error("kith: the invite carries the card of \(name.isEmpty ? "its creator" : name) (feed \(invite.creatorCard.feedID.string.prefix(8))…), signed and matching the creator id")
        Output.error("kith: reaching the creator through \(TerminalText.escaped(invite.server ?? ""))…")
        let device = DeviceID.random()
        let room: RoomID
        do throws(RelayError) {
            room = try await acceptRetrying(pairing, code: code, device: device, attempts: min(timeout, 30))
        } catch .rendezvous(.notFoundOrExpired) {
            throw PairRun.Failure(description: "the creator is not answering on its server right now (ask it to run `kith invite serve`), or the invite's code expired")
        } catch .rendezvous(.conflict) {
            throw PairRun.Failure(description: "another joiner is talking to the creator right now; try again in a moment")
        } catch {
            throw PairRun.Failure(description: PairRun.message(for: error))
        }
        Output.error("kith: paired; running the invite exchange over the relay (Noise, the server sees ciphertext only)…")
        let outcome: StrangerJoinOutcome
        do {
            outcome = try await RelayConnection.open(
                signalingURL: pairing.signalingURL, room: room, device: device, timeouts: RelayTimeouts(peer: .seconds(timeout))
            ) { transport, role in
                try await account.invites.joinAsStranger(invite, over: transport, initiator: role == .initiator)
            }
        } catch let error as RelayError {
            throw PairRun.Failure(description: PairRun.message(for: error))
        } catch KithError.sync(.link(.closed)) {
            throw PairRun.Failure(description: "the creator closed the exchange without an answer: the invite is not valid for it, or too many attempts were made lately")
        }
        let tag = invite.inspection.invite.payload.tag
        switch outcome {
        case .joined(let group):
            let extra = try await joined?(group) ?? []
            if json {
                var object = JSONObject()
                object["status"] = .string("joined")
                object["group_id"] = .string(group.string)
                object["tag"] = .string(tag)
                for (key, value) in extra { object[key] = value }
                Output.json(.object(object))
            } else {
                Output.line("Joined the group \(group.string) (tag \(TerminalText.escaped(tag))). Its messages reach you with the members' feeds. "
                    + "The creator is now a group peer: not a contact, but you may sync with each other while you share the group "
                    + "(`kith pair create` on one side, `kith pair join CODE` on the other); a sync with any contact who follows the group works too.")
            }
        case let .refused(error, reason):
            if json {
                var object = JSONObject()
                object["status"] = .string("refused")
                object["error"] = .string(error)
                object["reason"] = .string(reason)
                Output.json(.object(object))
            } else {
                Output.line("The creator refused: \(TerminalText.escaped(error)) (\(TerminalText.escaped(reason))).")
            }
            throw ExitCode(1)
        }
    }

    /// Accepts the invite's join code, trying again once a second while the server knows no such code (a creator
    /// answering several joiners offers the code again after each one) or another joiner holds it (the creator drops a
    /// joiner that does not come into the room within ``joinerArrival`` and offers the code again), and after the wait
    /// a rate-limited answer asks.
    static func acceptRetrying(_ pairing: RelayPairing, code: JoinCode, device: DeviceID, attempts: Int) async throws(RelayError) -> RoomID {
        var left = max(attempts, 1)
        while true {
            do throws(RelayError) {
                return try await pairing.accept(code, device: device)
            } catch .rendezvous(.notFoundOrExpired) where left > 1 {
                left -= 1
                try? await Task.sleep(for: .seconds(1))
            } catch .rendezvous(.conflict(_)) where left > 1 {
                left -= 1
                try? await Task.sleep(for: .seconds(1))
            } catch .rendezvous(.rateLimited(let seconds)) where left > 1 {
                left -= 1
                try? await Task.sleep(for: .seconds(min(max(seconds ?? 1, 1), 10)))
            }
        }
    }

    /// `kith invite serve`: offers the invite's join code on its server (with its claim), waits, runs the exchange,
    /// then frees the code (deletes the room) for the next, until `count` joiners were answered.
    ///
    /// Only an exchange that ends with an answer (admitted or refused) uses one of the `count` answers: a joiner that
    /// took the code but does not come into the room within ``joinerArrival``, fails the handshake or breaks off the
    /// exchange is dropped and the code is offered again at once, so a stray accept costs neither a slot nor a minute.
    static func serve(account: Account, text: String, count: Int, timeout: Int, json: Bool) async throws {
        let inspection = try await account.invites.inspect(text)
        guard case .ownInvite = inspection.signerCheck else {
            throw KithError.input(.invalid("`kith invite serve` answers for your own invites only (this one is not signed by your invite key)"))
        }
        let reach = inspection.invite.payload.reach
        let (pairing, code) = try relay(of: reach?.server, joinCode: reach?.joinCode)
        let proof = try Self.claim(of: code, account: account)
        var answered = 0
        while answered < count {
            let device = DeviceID.random()
            _ = try await PairRun.step { () async throws(RelayError) in
                try await pairing.offer(code, device: device, expiresInSeconds: timeout, claim: proof)
            }
            Output.error("kith: waiting for joiner \(answered + 1) of \(count) on \(TerminalText.escaped(reach?.server ?? "")) (up to \(timeout) s)…")
            let room = try await PairRun.step { () async throws(RelayError) in
                try await pairing.waitForAcceptance(code, device: device, timeout: .seconds(timeout))
            }
            let outcome: StrangerServeOutcome
            do {
                outcome = try await RelayConnection.open(
                    signalingURL: pairing.signalingURL, room: room, device: device, timeouts: RelayTimeouts(peer: joinerArrival)
                ) { transport, role in
                    try await account.invites.answerStranger(over: transport, initiator: role == .initiator)
                }
            } catch {
                Output.error("kith: a joiner took the code but did not finish the exchange (\(TerminalText.escaped(String(describing: error)))); offering it again")
                try? await pairing.client.deleteRoom(room)
                continue
            }
            try? await pairing.client.deleteRoom(room)
            report(outcome, json: json)
            if case .busy = outcome { continue }
            answered += 1
        }
    }

    private static func report(_ outcome: StrangerServeOutcome, json: Bool) {
        var object = JSONObject()
        let line: String
        switch outcome {
        case let .admitted(group, member):
            object["status"] = .string("admitted")
            object["group_id"] = .string(group.string)
            object["member"] = .string(member.string)
            line = "Added \(member.string.prefix(8))… to \(group.string) (one commit; the Welcome went back over the relay)."
        case .refused(let refusal):
            object["status"] = .string("refused")
            object["reason"] = .string(refusal.description)
            line = "Refused a joiner: \(TerminalText.escaped(refusal.description))."
        case .busy:
            object["status"] = .string("busy")
            line = "Turned a joiner away: too many invite exchanges lately."
        }
        if json { Output.json(.object(object)) } else { Output.line(line) }
    }
}
