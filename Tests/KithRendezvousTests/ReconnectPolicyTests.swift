import KithCanonical
import Testing
@testable import KithRendezvous

/// The relay's retry policy: exponential backoff with jitter, bounded in attempts and total time.
@Suite struct ReconnectPolicyTests {
    /// A generator that always answers the same bits (0: the lowest jitter, all ones: the highest).
    struct FixedBits: RandomNumberGenerator {
        let bits: UInt64
        mutating func next() -> UInt64 { bits }
    }

    @Test func baseDelayDoublesFromHalfASecondToThirtySeconds() {
        let policy = ReconnectPolicy.standard
        let bases = (1...9).map { policy.baseDelay(beforeAttempt: $0) }
        #expect(bases == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30), .seconds(30)])
        #expect(policy.baseDelay(beforeAttempt: 1_000_000) == .seconds(30))
    }

    @Test func jitterStaysInTheUpperHalfOfTheBase() {
        let policy = ReconnectPolicy.standard
        var low = FixedBits(bits: 0)
        var high = FixedBits(bits: .max)
        #expect(policy.delay(beforeAttempt: 3, elapsed: .zero, using: &low) == .seconds(1))
        let highest = policy.delay(beforeAttempt: 3, elapsed: .zero, using: &high)
        #expect(highest.map { $0 > .milliseconds(1_990) && $0 <= .seconds(2) } == true)
        var random = SplitMix64(seed: 7)
        for attempt in 1...10 {
            let base = policy.baseDelay(beforeAttempt: attempt)
            let delay = policy.delay(beforeAttempt: attempt, elapsed: .zero, using: &random)
            #expect(delay.map { $0 >= base / 2 && $0 <= base } == true)
        }
    }

    @Test func givesUpAfterTheAttemptsOrTheTotalTime() {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(500), maximumDelay: .seconds(30), maximumAttempts: 4, maximumTotal: .seconds(10))
        var low = FixedBits(bits: 0)
        #expect(policy.delay(beforeAttempt: 0, elapsed: .zero, using: &low) == nil)
        #expect(policy.delay(beforeAttempt: 4, elapsed: .zero, using: &low) == .seconds(2))
        #expect(policy.delay(beforeAttempt: 5, elapsed: .zero, using: &low) == nil)
        // 2 s of waiting would end past the 10 s budget.
        #expect(policy.delay(beforeAttempt: 4, elapsed: .seconds(8) + .milliseconds(1), using: &low) == nil)
        #expect(policy.delay(beforeAttempt: 4, elapsed: .seconds(8), using: &low) == .seconds(2))
        // The standard policy's worst case (every delay at its base) stays within its two minutes.
        var high = FixedBits(bits: .max)
        var elapsed = Duration.zero
        var attempts = 0
        while let delay = ReconnectPolicy.standard.delay(beforeAttempt: attempts + 1, elapsed: elapsed, using: &high) {
            elapsed += delay
            attempts += 1
        }
        #expect(attempts >= 6 && attempts <= ReconnectPolicy.standard.maximumAttempts)
        #expect(elapsed <= .seconds(120))
    }
}

/// A chat's resume message and the ledger that tells which lines a drop lost.
@Suite struct ChatResumeTests {
    @Test func resumeRoundTripsAndIsBounded() throws {
        for count: UInt32 in [0, 1, 258, .max] {
            #expect(try ChatMessage(bytes: ChatMessage.resume(receivedLines: count).bytes) == .resume(receivedLines: count))
        }
        #expect(ChatMessage.resume(receivedLines: 0x0102_0304).bytes == [0x03, 1, 2, 3, 4])
        for bad: [UInt8] in [[0x03], [0x03, 1, 2, 3], [0x03, 1, 2, 3, 4, 5], [0x04, 0, 0, 0, 0]] {
            #expect(throws: ChatError.malformedMessage) { try ChatMessage(bytes: bad) }
        }
    }

    @Test func ledgerNamesTheLinesThePeerDidNotReceiveOnce() {
        let ledger = ChatLedger()
        for index in 0..<5 { ledger.recordSent("line \(index)") }
        ledger.recordReceived()
        #expect(ledger.receivedLines == 1)
        let lost = ledger.undelivered(peerReceived: 3)
        #expect(lost.count == 2 && lost.lines == ["line 3", "line 4"])
        #expect(ledger.sentLines == 3)
        // Reported once: the same count later names nothing; a peer claiming too much is not believed to lose anything.
        #expect(ledger.undelivered(peerReceived: 3).count == 0)
        #expect(ledger.undelivered(peerReceived: 99).count == 0)
        ledger.recordSent("line 5")
        #expect(ledger.undelivered(peerReceived: 3).lines == ["line 5"])
    }

    @Test func ledgerRemembersOnlyTheLastLines() {
        let ledger = ChatLedger()
        for index in 0..<(ChatLedger.rememberedLines + 10) { ledger.recordSent("\(index)") }
        let lost = ledger.undelivered(peerReceived: 0)
        #expect(lost.count == ChatLedger.rememberedLines + 10)
        #expect(lost.lines.count == ChatLedger.rememberedLines)
        #expect(lost.lines.first == "10")
    }
}
