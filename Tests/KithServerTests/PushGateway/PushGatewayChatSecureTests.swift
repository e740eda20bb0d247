import Foundation
import Hummingbird
import HummingbirdTesting
import KithCanonical
import KithPush
@testable import KithServer
import Testing

/// What the ChatSecure-Push iOS SDK sends and how it decodes answers (`Deserializer.swift`), against the gateway.
@Suite("Push gateway and the ChatSecure-Push SDK: string-only accounts, tokens by registration id, lists with tokens")
struct PushGatewayChatSecureTests {
    @Test("an account without email answers every value as a string (email \"\"): the SDK decodes it as [String: String]")
    func accountValuesAreStrings() async throws {
        let (server, _, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let created = try await client.push(.post, "/api/v1/accounts/", #"{"username":"alice","password":"pw1"}"#)
            #expect(created.status == 201)
            #expect(created.object.members.allSatisfy { $0.value.stringValue != nil })
            #expect(created.string("email") == "")
            let token = try #require(created.string("token"))
            let own = try await client.push(.get, "/api/v1/accounts/", token: token)
            #expect(own.object.members.allSatisfy { $0.value.stringValue != nil } && own.string("email") == "")
            let login = try await client.push(.post, "/api/v1/accounts/", #"{"username":"alice","password":"pw1"}"#)
            #expect(login.object.members.allSatisfy { $0.value.stringValue != nil } && login.string("email") == "")
        }
    }

    @Test("createToken as the SDK sends it: apns_device is the APNs registration id (spaces as iOS prints them too)")
    func tokenForRegistrationID() async throws {
        let (server, _, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let alice = try await client.pushAccount("alice")
            let registration = String(repeating: "ab12", count: 16)
            let device = try await client.apnsDevice(token: alice, registration: registration)
            let byRegistration = try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(registration)","name":"bob"}"#, token: alice)
            #expect(byRegistration.status == 201)
            #expect(byRegistration.string("apns_device") == device && byRegistration.string("token")?.count == 40)
            let spaced = stride(from: 0, to: registration.count, by: 8).map { offset in
                String(registration.dropFirst(offset).prefix(8))
            }.joined(separator: " ")
            #expect(try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(spaced)"}"#, token: alice).status == 201)
            // Another account's registration id names no device of the caller.
            let bob = try await client.pushAccount("bob")
            _ = try await client.apnsDevice(token: bob, registration: String(repeating: "cd34", count: 16))
            let foreign = try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(String(repeating: "cd34", count: 16))"}"#, token: alice)
            #expect(foreign.status == 400)
        }
    }

    @Test("the token list carries each token (derived again, never stored); Web Push and earlier tokens stay out of results")
    func tokenListCarriesTokens() async throws {
        let (server, store, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let alice = try await client.pushAccount("alice", password: "pw")
            let device = try await client.apnsDevice(token: alice)
            let earlier = try await client.whitelistToken(token: alice, device: device)
            // A login issues a fresh API token: tokens derived under the old one can no longer be derived.
            let relogged = try #require(try await client.push(.post, "/api/v1/accounts/", #"{"username":"alice","password":"pw"}"#).string("token"))
            let current = try await client.whitelistToken(token: relogged, device: device)
            let list = try await client.push(.get, "/api/v1/tokens/", token: relogged)
            let results = try #require(list.object["results"]?.arrayValue)
            #expect(results.count == 1)
            let entry = try #require(results.first?.objectValue)
            // The SDK's token(_:) needs `token` and `apns_device` or `gcm_device`, both strings.
            #expect(entry["token"]?.stringValue == current && entry["apns_device"]?.stringValue == device)
            let older = try #require(list.object["earlier_results"]?.arrayValue?.first?.objectValue)
            #expect(older["token"] == nil)
            #expect(older["token_digest"]?.stringValue == Hex.encode(try WhitelistToken(hex: earlier).storageDigest))
            // Both still knock.
            #expect(try await client.knock(earlier).status == 202)
            #expect(try await client.knock(current).status == 202)
            // At rest: the stored record holds a digest and a nonce, never the token.
            let owner = try #require(try await store.account(username: "alice")).id
            for record in try await store.tokens(owner: owner) {
                #expect(record.derivationNonce?.count == PushTokenDerivation.nonceBytes)
                #expect(!Hex.encode(record.digest).contains(current) && !Hex.encode(record.derivationNonce ?? []).contains(current))
            }
        }
    }

    @Test("a token derives only from the API token and nonce it was made with")
    func derivation() throws {
        let api = WhitelistToken.generate()
        let nonce = PushTokenDerivation.nonce()
        let token = PushTokenDerivation.token(apiToken: api, nonce: nonce)
        #expect(PushTokenDerivation.token(apiToken: api, nonce: nonce) == token)
        #expect(PushTokenDerivation.token(apiToken: WhitelistToken.generate(), nonce: nonce) != token)
        let record = PushTokenRecord(
            digest: token.storageDigest, owner: "o", deviceID: "d", deviceKind: .apns, name: nil, createdAt: 0, expiresAt: 1, derivationNonce: nonce)
        #expect(PushTokenDerivation.token(of: record, apiToken: api) == token)
        #expect(PushTokenDerivation.token(of: record, apiToken: WhitelistToken.generate()) == nil)
        var legacy = record
        legacy.derivationNonce = nil
        #expect(PushTokenDerivation.token(of: legacy, apiToken: api) == nil)
    }
}
