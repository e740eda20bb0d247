import KithSync
import Testing

@Suite("Held-range and blob record violations", .timeLimit(.minutes(3)))
struct SyncSessionRecordViolationTests {
    let parties = LinkParties()

    @Test("held ranges for a feed the peer did not request end the session")
    func heldWithoutRequest() async throws {
        let report = try await parties.againstRawPeer(bob: InMemoryFeedSource()) { alice in
            try await alice.send([.held(SyncHeldRanges(feedTag: try Fixtures.feedTag(1), ranges: [4...5])), .done])
            while (try? await alice.receive()) != nil {}
        }
        #expect(report.violation == .unexpectedHeldRanges)
    }

    @Test("held ranges at or below the request's have_seq end the session")
    func heldBelowHave() async throws {
        let report = try await parties.againstRawPeer(bob: InMemoryFeedSource()) { alice in
            let feed = try Fixtures.feedTag(1)
            try await alice.send([.request(SyncRequest(feedTag: feed, haveSequence: 9)), .held(SyncHeldRanges(feedTag: feed, ranges: [9...12])), .done])
            while (try? await alice.receive()) != nil {}
        }
        #expect(report.violation == .unexpectedHeldRanges)
    }

    @Test("held ranges that do not ascend across records end the session")
    func heldOutOfOrderAcrossRecords() async throws {
        let report = try await parties.againstRawPeer(bob: InMemoryFeedSource()) { alice in
            let feed = try Fixtures.feedTag(1)
            try await alice.send([
                .request(SyncRequest(feedTag: feed, haveSequence: 1)),
                .held(SyncHeldRanges(feedTag: feed, ranges: [20...25])),
                .held(SyncHeldRanges(feedTag: feed, ranges: [5...6])),
                .done,
            ])
            while (try? await alice.receive()) != nil {}
        }
        #expect(report.violation == .unexpectedHeldRanges)
    }

    @Test("held ranges after done end the session")
    func heldAfterDone() async throws {
        let report = try await parties.againstRawPeer(bob: InMemoryFeedSource()) { alice in
            let feed = try Fixtures.feedTag(1)
            try await alice.send([.request(SyncRequest(feedTag: feed, haveSequence: 1)), .done, .held(SyncHeldRanges(feedTag: feed, ranges: [5...6]))])
            while (try? await alice.receive()) != nil {}
        }
        #expect(report.violation == .unexpectedHeldRanges)
    }

    @Test("a blob chunk for a blob that was not wanted ends the session")
    func unwantedBlob() async throws {
        let report = try await parties.againstRawPeer(bob: InMemoryFeedSource()) { alice in
            let chunk = SyncChunk(messageID: SyncMessageID(envelope: [1]), chunkIndex: 0, totalChunks: 1, data: [1])
            try await alice.send([.done, .blobChunk(chunk)])
            while (try? await alice.receive()) != nil {}
        }
        #expect(report.violation == .unexpectedBlobRecord)
    }

    @Test("blob missing for a blob that was not wanted ends the session")
    func unwantedMissing() async throws {
        let report = try await parties.againstRawPeer(bob: InMemoryFeedSource()) { alice in
            try await alice.send([.done, .blobMissing(SyncBlobID(blob: [1]))])
            while (try? await alice.receive()) != nil {}
        }
        #expect(report.violation == .unexpectedBlobRecord)
    }

    @Test("a second blobs-done, or a want after it, ends the session")
    func blobsDoneTwice() async throws {
        let twice = try await parties.againstRawPeer(bob: InMemoryFeedSource()) { alice in
            try await alice.send([.done, .blobsDone, .blobsDone])
            while (try? await alice.receive()) != nil {}
        }
        #expect(twice.violation == .unexpectedBlobRecord)
        let late = try await parties.againstRawPeer(bob: InMemoryFeedSource()) { alice in
            try await alice.send([.done, .blobsDone, .blobWant(SyncBlobWant(blobID: SyncBlobID(blob: [2]), maximumBytes: 10))])
            while (try? await alice.receive()) != nil {}
        }
        #expect(late.violation == .unexpectedBlobRecord)
    }

    @Test("a blob that does not hash to its id is not stored, and the session still completes")
    func forgedBlob() async throws {
        let bobBlobs = InMemoryBlobSource()
        let wanted = SyncBlobID(blob: Array(repeating: 7, count: 50))
        await bobBlobs.want([wanted])
        let (central, peripheral) = SimulatedBLELink.makePair()
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        let alice = try connected.get()
        let bobLink = try accepted.get()
        async let report = SyncSession(
            link: bobLink, source: InMemoryFeedSource(), clock: peripheral,
            options: SyncSessionOptions(blobSource: bobBlobs)
        ).run()
        try await alice.send([.done])
        // Answer bob's request-less opening, then serve a forged blob under the wanted id.
        var answered = false
        while let frame = try? await alice.receive() {
            if case .blobWant(let want) = frame, !answered {
                answered = true
                let forged = SyncChunk(messageID: try SyncMessageID(bytes: want.blobID.bytes), chunkIndex: 0, totalChunks: 1, data: [8, 8, 8])
                try await alice.send([.blobChunk(forged), .blobsDone])
            }
        }
        let result = await report
        #expect(result.violation == nil)
        #expect(result.blobsReceived == 0)
        #expect(result.chunksRejected == 1)
        #expect(await bobBlobs.heldIDs.isEmpty)
    }
}
