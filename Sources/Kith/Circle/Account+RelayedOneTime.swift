import Crypto
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithTDF

/// A one-time message that came over a relay as a bare NanoTDF (the relay router's output), not in
/// a feed: opened once with the pool key it names and never stored (docs/TDF.md, "Relay router").
public struct RelayedOneTimeMessage: Sendable, Equatable {
    /// The inner-circle contact whose pool key opened it (the only other holder of its public half).
    public let contact: FeedID
    /// The text.
    public let post: Post
}

extension Account {
    /// The encrypted policy of a relayed one-time message: author and recipient (no feed sequence;
    /// replays fail because the key is gone).
    static func relayPolicy(from author: FeedID, to recipient: FeedID) -> [UInt8] {
        Array("kith-otk-relay-v1|\(author.string)|\(recipient.string)".utf8)
    }
}

/// Opens what the relay router hands over (see ``Account/Circle/relayedReceiver(_:)``).
struct RelayedOneTimeReceiver: NanoTDFReceiver {
    let account: Account
    let handle: @Sendable (Result<RelayedOneTimeMessage, KithError>) async -> Void

    func received(_ nano: NanoTDF) async {
        do throws(KithError) {
            await handle(.success(try await account.circle.openRelayed(nano)))
        } catch {
            await handle(.failure(error))
        }
    }

    func rejected(_ error: NanoTDFError) async {
        await handle(.failure(.circle(.invalidPool("a relayed NanoTDF did not parse: \(error)"))))
    }
}

extension Account.Circle {
    /// Seals `text` for an inner-circle contact under the next key of their pool, for a relay
    /// (`RelayTransport.sendNanoTDF` in KithRendezvous): no feed entry; the key is marked used
    /// at once, so it is never used twice whether or not the message arrives.
    /// - Throws: ``KithError/circle(_:)`` when there is no active pool with `contact` or it is exhausted.
    public func sealForRelay(_ text: String, to contact: FeedID) async throws(KithError) -> NanoTDF {
        try await BlockingWork.run { () throws(KithError) in
            let plaintext: [UInt8]
            let content = Content.post(Post(body: text))
            do throws(FeedError) { plaintext = try content.canonicalBytes() } catch { throw .feed(error) }
            let taken: OneTimePoolAccess.TakenKey
            do throws(OneTimePoolError) {
                taken = try account.store.withOneTimePools { pools throws(OneTimePoolError) in try pools.takeNextPeerKey(peer: contact.string) }
            } catch {
                throw .circle(error)
            }
            if taken.crossedRenewalThreshold { account.hub.emit(.circlePoolLow(contact, remaining: taken.remaining, capacity: taken.capacity)) }
            let local = account.feedID
            return try Account.sealOneTimeNano(plaintext, to: taken.publicKey, from: local, policy: Account.relayPolicy(from: local, to: contact))
        }
    }

    /// Opens a NanoTDF that came over a relay: its KAS locator names the author (a contact) and the
    /// pool key; the encrypted policy must name author and recipient for the relay; the key is
    /// deleted in the transaction that opened it, so a replay cannot be read. Anything else (not
    /// a contact, no pool, unknown or used key, tampered, not a post) is refused and changes nothing.
    public func openRelayed(_ nano: NanoTDF) async throws(KithError) -> RelayedOneTimeMessage {
        try await BlockingWork.run { () throws(KithError) in
            let kas = nano.header.kas
            guard kas.scheme == .sharedResourceDirectory, let id = OneTimeKeyID(bytes: kas.identifier),
                  let author = try? FeedID(String(decoding: kas.body, as: UTF8.self)) else {
                throw .circle(.invalidPool("a relayed NanoTDF must name its author and one-time key in its KAS locator"))
            }
            let isContact: Bool
            do throws(StoreError) { isContact = try account.store.contact(author) != nil } catch { throw .store(error) }
            guard isContact else { throw .circle(.noPool(peer: author.string)) }
            let local = account.feedID
            let plaintext: [UInt8]
            do throws(OneTimePoolError) {
                plaintext = try account.store.withOneTimePools { pools throws(OneTimePoolError) in
                    let raw = try pools.ownPrivateKey(peer: author.string, keyID: id.bytes)
                    do {
                        let key = NanoTDF.PrivateKey.p256(try P256.KeyAgreement.PrivateKey(rawRepresentation: raw))
                        let opened = try nano.decrypt(using: key)
                        guard ConstantTime.equals(try nano.policy(using: key), Account.relayPolicy(from: author, to: local)) else {
                            throw OneTimePoolError.invalidPool("the relayed message's policy does not name this sender and recipient")
                        }
                        try pools.deleteOwnKey(peer: author.string, keyID: id.bytes)
                        return opened
                    } catch let error as OneTimePoolError {
                        throw error
                    } catch {
                        throw .invalidPool("the relayed message does not open: \(error)")
                    }
                }
            } catch {
                throw .circle(error)
            }
            guard case .post(let post)? = try? Content.parse(plaintext, envelopeType: "post") else {
                throw .circle(.invalidPool("a relayed one-time message must be a post"))
            }
            return RelayedOneTimeMessage(contact: author, post: post)
        }
    }

    /// A receiver for the relay router (`RelayConnection.open(…, nanoTDF:)`) that opens each NanoTDF
    /// with ``Account/Circle/openRelayed(_:)`` and hands the outcome to `handle`.
    public func relayedReceiver(
        _ handle: @escaping @Sendable (Result<RelayedOneTimeMessage, KithError>) async -> Void
    ) -> any NanoTDFReceiver {
        RelayedOneTimeReceiver(account: account, handle: handle)
    }
}
