import KithRatchet
import PropertyBased
import Testing

/// Random delivery orders, drops, delays and duplicates: every message that arrives decrypts
/// exactly once, and every repeat is rejected as a duplicate.
@Suite struct DeliveryPropertyTests {
    private enum Direction { case aliceToBob, bobToAlice }

    private struct InFlight {
        var sent: SessionPair.Sent
        var direction: Direction
        var delivered = false
    }

    @Test func lossyReorderingDuplicatingNetwork() async {
        await propertyCheck(count: 25, input: Gen.int(in: 0...Int.max)) { seed in
            do {
                try Self.simulate(seed: UInt64(seed))
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    @Test func inOrderFeedWithFirstMessageOfChainPolicyEventuallyDecryptsEverything() async {
        await propertyCheck(count: 15, input: Gen.int(in: 0...Int.max)) { seed in
            do {
                try Self.simulateReorderWithoutLoss(seed: UInt64(seed))
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }

    /// `.everyMessage` policy; messages are delayed, dropped and duplicated at random.
    private static func simulate(seed: UInt64) throws {
        var rng = SplitMix64(state: seed)
        var pair = try SessionPair(configuration: RatchetConfiguration(pqCarryPolicy: .everyMessage))
        var flight: [InFlight] = []
        var opened = 0
        // Alice's first burst; Bob must be reached by at least one message to ever reply.
        for index in 0..<Int.random(in: 1...4, using: &rng) {
            flight.append(InFlight(sent: try pair.aliceSends("a0-\(index)"), direction: .aliceToBob))
        }
        for round in 0..<8 {
            // Deliver a random selection (with repeats) of what is in flight, in random order.
            var picks = flight.indices.filter { _ in Int.random(in: 0..<10, using: &rng) < 6 }
            picks += picks.filter { _ in Bool.random(using: &rng) }
            picks.shuffle(using: &rng)
            for index in picks {
                let item = flight[index]
                if item.direction == .bobToAlice || pair.bobSession != nil || DirectMessageWire.isPrekeyMessage(item.sent.wire) {
                    do {
                        let plaintext = item.direction == .aliceToBob ? try pair.bobReceives(item.sent) : try pair.aliceReceives(item.sent)
                        #expect(!item.delivered, "a repeat decrypted twice")
                        #expect(plaintext == item.sent.plaintext)
                        flight[index].delivered = true
                        opened += 1
                    } catch RatchetError.duplicateOrExpiredMessage {
                        #expect(item.delivered, "first delivery rejected as duplicate")
                    }
                }
            }
            // Drop a few messages for good.
            flight.removeAll { !$0.delivered && Int.random(in: 0..<10, using: &rng) == 0 }
            // Whoever can send does so.
            if pair.bobSession != nil, Bool.random(using: &rng) || round % 2 == 1 {
                for index in 0..<Int.random(in: 1...3, using: &rng) {
                    flight.append(InFlight(sent: try pair.bobSends("b\(round)-\(index)"), direction: .bobToAlice))
                }
            }
            for index in 0..<Int.random(in: 0...3, using: &rng) {
                flight.append(InFlight(sent: try pair.aliceSends("a\(round + 1)-\(index)"), direction: .aliceToBob))
            }
        }
        // Final flush: everything still in flight arrives once more.
        for index in flight.indices.shuffled(using: &rng) {
            let item = flight[index]
            if item.direction == .aliceToBob && pair.bobSession == nil && !DirectMessageWire.isPrekeyMessage(item.sent.wire) { continue }
            do {
                let plaintext = item.direction == .aliceToBob ? try pair.bobReceives(item.sent) : try pair.aliceReceives(item.sent)
                #expect(!item.delivered)
                #expect(plaintext == item.sent.plaintext)
                opened += 1
            } catch RatchetError.duplicateOrExpiredMessage {
                #expect(item.delivered)
            }
        }
        #expect(opened > 0)
    }

    /// Default policy; no losses, random order within the backlog; retryable errors are retried.
    private static func simulateReorderWithoutLoss(seed: UInt64) throws {
        var rng = SplitMix64(state: seed)
        var pair = try SessionPair()
        var total = 0
        var decrypted = 0
        for round in 0..<4 {
            var queue: [SessionPair.Sent] = []
            let sendsAlice = round % 2 == 0
            for index in 0..<Int.random(in: 1...5, using: &rng) {
                queue.append(sendsAlice ? try pair.aliceSends("a\(round)-\(index)") : try pair.bobSends("b\(round)-\(index)"))
            }
            total += queue.count
            queue.shuffle(using: &rng)
            var attempts = 0
            while let next = queue.first {
                queue.removeFirst()
                attempts += 1
                #expect(attempts < 100)
                if attempts >= 100 { return }
                do {
                    let plaintext = sendsAlice ? try pair.bobReceives(next) : try pair.aliceReceives(next)
                    #expect(plaintext == next.plaintext)
                    decrypted += 1
                } catch RatchetError.missingPQCiphertext {
                    queue.append(next)
                } catch RatchetError.malformed {
                    queue.append(next)   // Bob has no session yet and this is not the prekey message.
                }
            }
        }
        #expect(decrypted == total)
    }
}
