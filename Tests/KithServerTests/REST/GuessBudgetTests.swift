import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

@Suite("Guess budgets: colliding creates and the node-wide bound")
struct GuessBudgetTests {
    @Test("a create that collides with a live code spends a guess; free creates cost none; an empty budget answers 429 for any code")
    func collidingCreates() async throws {
        var limits = TestServer.limits()
        limits.guessesPerSource = RateLimitRule(burst: 3, perSecond: 0.001)
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            // Free codes: each create gives its guess back, so ten of them pass a budget of three.
            for code in 500_000..<500_010 { #expect(try await client.create(String(code), "owner-\(code)").status == 201) }
            // Probing live codes: each 409 is a guess.
            for code in 500_000..<500_003 { #expect(try await client.create(String(code), "prober").status == 409) }
            // The budget is empty: a free code and a live one get the same answer.
            let free = try await client.create("600000", "prober")
            let live = try await client.create("500005", "prober")
            #expect(free.status == 429)
            #expect(live.status == 429)
            #expect(free.text == live.text)
        }
    }

    @Test("wrong guesses share one node-wide budget; right ones give theirs back; an empty budget answers 429 before the store")
    func nodeWideBudget() async throws {
        var limits = TestServer.limits()
        limits.wrongGuessesPerNode = RateLimitRule(burst: 4, perSecond: 0.01)
        let (server, _, clock) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            #expect(try await client.create("700000", "dev-a").status == 201)
            // Right guesses: a pending check and the winning accept cost the node nothing.
            for _ in 0..<10 { #expect(try await client.check("700000", "dev-a").status == 204) }
            #expect(try await client.accept("700000", "dev-b").status == 200)
            // Four wrong guesses of any kind empty it: a lost race, a miss, a check of an unknown code, a collision.
            #expect(try await client.accept("700000", "guesser").status == 409)
            #expect(try await client.check("700000", "dev-a").status == 200)
            #expect(try await client.accept("700001", "guesser").status == 404)
            #expect(try await client.check("700002", "guesser").status == 404)
            #expect(try await client.create("800000", "dev-c").status == 201)
            #expect(try await client.create("800000", "guesser").status == 409)
            // Now every guess is refused, whatever the code, until the bucket refills.
            let refused = try await client.accept("800000", "dev-d")
            #expect(refused.status == 429)
            #expect(refused.headers[.retryAfter] == "100")
            #expect(try await client.create("900000", "dev-e").status == 429)
            clock.advance(seconds: 100)
            #expect(try await client.accept("800000", "dev-d").status == 200)
        }
    }

    @Test("the node-wide bound is a setting: --node-guess-rate N is N an hour, N at once")
    func setting() throws {
        var flags = ServerSettings.Flags()
        flags.nodeWrongGuessesPerHour = 120
        let settings = try ServerSettings(flags: flags, environment: [:])
        #expect(settings.limits.wrongGuessesPerNode.burst == 120)
        #expect(abs(settings.limits.wrongGuessesPerNode.perSecond - 120.0 / 3_600) < 1e-9)
        let fromEnvironment = try ServerSettings(flags: ServerSettings.Flags(), environment: ["KITH_SERVE_NODE_GUESS_RATE": "60"])
        #expect(fromEnvironment.limits.wrongGuessesPerNode.burst == 60)
        #expect(RendezvousServerLimits().wrongGuessesPerNode.burst == 600)
        #expect(throws: ServerSettingsError.self) { try ServerSettings(flags: ServerSettings.Flags(), environment: ["KITH_SERVE_NODE_GUESS_RATE": "0"]) }
    }
}
