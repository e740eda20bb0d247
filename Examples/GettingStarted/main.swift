// The getting-started program of the Kith documentation (Sources/Kith/Kith.docc/GettingStarted.md),
// using only Kith's public API: two people create accounts, meet, post, sync over a simulated
// radio link, and read what arrived. CI builds it and runs it (`kith-example`).
import Foundation
import Kith
import KithFeed
import KithSync

/// Where the example's two homes live (a fresh temporary folder, removed at the end).
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kith-example-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }

do {
    // 1. Each person creates an account: a vault sealed under a passphrase, and a store.
    let alice = try await Account.create(home: AccountHome(directory: folder.appendingPathComponent("alice")), passphrase: { "alice's passphrase" })
    let bob = try await Account.create(home: AccountHome(directory: folder.appendingPathComponent("bob")), passphrase: { "bob's passphrase" })

    // 2. They meet and scan each other's cards (here, the card text is passed directly).
    let aliceCard = try await alice.contacts.card(displayName: "Alice")
    let bobCard = try await bob.contacts.card(displayName: "Bob")
    let bobAsSeenByAlice = try await alice.contacts.add(cardText: bobCard.text, name: "Bob")
    _ = try await bob.contacts.add(cardText: aliceCard.text, name: "Alice")

    // 3. Alice posts to her contacts and writes Bob a direct message.
    try await alice.publishing.post("Hello, contacts", audience: .contacts)
    try await alice.direct.send("coffee on Friday?", to: bobAsSeenByAlice.feedID)

    // Bob's app follows what arrives.
    let events = bob.events()
    let watcher = Task {
        var stored = 0
        for await event in events {
            if case .messagesStored(_, let ids) = event { stored += ids.count }
            if case .directMessagesOpened = event { return stored }
        }
        return stored
    }

    // 4. They sync over a link (a simulated radio here; TCP or the platform's own transport in an app).
    let (central, peripheral) = SimulatedBLELink.makePair()
    let aliceAgent = SyncAgent(account: alice)
    let bobAgent = SyncAgent(account: bob)
    async let bobSide: SyncSessionReport? = {
        guard let link = try? await bobAgent.accept(over: peripheral) else { return nil }
        return await bobAgent.run(link: link, clock: peripheral)
    }()
    let link = try await aliceAgent.initiate(over: central, contact: bobAsSeenByAlice)
    let report = await aliceAgent.run(link: link, clock: central)
    _ = await bobSide
    print("sync complete: \(report.completed), sent \(report.messagesSent) messages")

    // 5. Bob reads what arrived.
    let stored = await watcher.value
    print("Bob's app was told of \(stored) stored messages")
    let timeline = try await bob.feed.timeline(feed: alice.feedID, limit: 10)
    let conversation = try await bob.direct.conversation(with: alice.feedID)
    for message in timeline { if case .post(let post) = message.content { print("Alice [\(message.audience.prefix(8))]: \(post.body)") } }
    print("Bob's direct conversation with Alice holds \(conversation.count) message(s)")
    guard report.completed, timeline.contains(where: { if case .post = $0.content { true } else { false } }), !conversation.isEmpty else {
        print("the example did not see every message arrive")
        exit(1)
    }
} catch {
    // Errors are typed: an app switches on the domain (.vault, .contacts, .sync, ...).
    print("kith-example: \(error)")
    exit(1)
}
