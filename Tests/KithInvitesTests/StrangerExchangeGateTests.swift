import KithInvites
import Testing

/// The creator's bound on exchanges with strangers: at once and per window.
struct StrangerExchangeGateTests {
    @Test func concurrentExchangesAreBounded() {
        var gate = StrangerExchangeGate(maxConcurrent: 2, maxStartsPerWindow: 100, window: 60)
        let first = gate.begin(now: 0)
        let second = gate.begin(now: 0)
        let third = gate.begin(now: 0)
        #expect(first && second && !third)
        gate.end()
        let afterEnd = gate.begin(now: 1)
        #expect(afterEnd)
        #expect(gate.running == 2)
    }

    @Test func startsPerWindowAreBoundedAndTheWindowResets() {
        var gate = StrangerExchangeGate(maxConcurrent: 10, maxStartsPerWindow: 3, window: 60)
        for _ in 0..<3 {
            let started = gate.begin(now: 100)
            #expect(started)
            gate.end()
        }
        let late = gate.begin(now: 159)
        #expect(!late)
        let nextWindow = gate.begin(now: 160)
        #expect(nextWindow)
        gate.end()
        gate.end()
        #expect(gate.running == 0)
    }
}
