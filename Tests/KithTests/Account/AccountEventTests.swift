import KithFeed
import KithIdentity
import Testing
@testable import Kith

/// ``Account/events()``: what happened, delivered to every subscriber.
@Suite(.timeLimit(.minutes(3)))
struct AccountEventTests {
    /// The next `count` events of a subscription (fewer if they do not come within 5 seconds).
    static func take(_ count: Int, from stream: AsyncStream<AccountEvent>) async -> [AccountEvent] {
        await take(from: stream) { $0.count == count }
    }

    /// Collects events until `enough` says the events so far suffice (or a generous time limit passes).
    static func take(from stream: AsyncStream<AccountEvent>, until enough: @escaping @Sendable ([AccountEvent]) -> Bool) async -> [AccountEvent] {
        let collector = Task {
            var events: [AccountEvent] = []
            for await event in stream {
                events.append(event)
                if enough(events) { break }
            }
            return events
        }
        let timeout = Task {
            // Bounded generously: a loaded machine can take seconds to deliver an event; a passing test never waits this.
            try? await Task.sleep(for: .seconds(30))
            collector.cancel()
        }
        let events = await collector.value
        timeout.cancel()
        return events
    }

    @Test func subscribersSeeStoredOpenedRotatedAndRemoved() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        let first = bob.events()
        let second = bob.events()
        let direct = try await alice.direct.send("hello Bob", to: bob.feedID)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        try await alice.rotation.rotate(reason: .scheduledRotation)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        let post = try await bob.publishing.post("hi all", audience: .contacts)
        try await bob.contacts.remove(alice.feedID)

        for stream in [first, second] {
            let events = await Self.take(6, from: stream)
            guard events.count == 6 else { Issue.record("only \(events.count) events: \(events)"); continue }
            guard case .messagesStored(let feed, let stored) = events[0] else { Issue.record("\(events[0])"); continue }
            #expect(feed == alice.feedID && stored.contains(direct.messageID))
            guard case .directMessagesOpened(let opened) = events[1] else { Issue.record("\(events[1])"); continue }
            #expect(opened.contains(direct.messageID))
            guard case .messagesStored(let later, _) = events[2] else { Issue.record("\(events[2])"); continue }
            #expect(later == alice.feedID)
            guard case .keysRotated(let rotated) = events[3] else { Issue.record("\(events[3])"); continue }
            #expect(rotated == alice.feedID)
            guard case .messagesStored(let own, let written) = events[4] else { Issue.record("\(events[4])"); continue }
            #expect(own == bob.feedID && written == [post.messageID])
            guard case .contactRemoved(let removed) = events[5] else { Issue.record("\(events[5])"); continue }
            #expect(removed == alice.feedID)
        }
    }

    @Test func addingAContactIsAnEvent() async throws {
        let alice = try ContactsAccountTests.account(0xA1)
        let bob = try ContactsAccountTests.account(0xB0)
        let events = bob.events()
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        let seen = await Self.take(1, from: events)
        guard case .contactAdded(let feed)? = seen.first else { Issue.record("\(seen)"); return }
        #expect(feed == alice.feedID)
    }

    @Test func syncProgressAndSyncedMessagesArriveAsEvents() async throws {
        let (alice, bob) = try await SyncPair.met()
        try await alice.publishing.post("over the air", audience: .contacts)
        let events = bob.events()
        let outcome = await SyncPair.session(alice, bob)
        #expect(outcome.bob.messagesAccepted >= 1)
        let aliceFeed = alice.feedID
        @Sendable func sawProgress(_ events: [AccountEvent]) -> Bool {
            events.contains { if case .syncProgress = $0 { true } else { false } }
        }
        @Sendable func sawStored(_ events: [AccountEvent]) -> Bool {
            events.contains { if case .messagesStored(let feed, _) = $0 { feed == aliceFeed } else { false } }
        }
        // Waits for the two events, not for a count: how many events a session raises is not this test's concern.
        let seen = await Self.take(from: events) { sawProgress($0) && sawStored($0) }
        #expect(sawProgress(seen))
        #expect(sawStored(seen))
    }
}
