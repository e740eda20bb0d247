import KithInvites
import Testing

/// The creator's bound on exchanges with strangers: at once and per window.
struct StrangerExchangeGateTests {
    @Test func concurrentExchangesAreBounded() {
        var gate = StrangerExchangeGate(maxConcurrent: 2, maxStartsPerWindow: 100, window: 60)
        #expect(gate.begin(now: 0) && gate.begin(now: 0))
        #expect(!gate.begin(now: 0))
        gate.end()
        #expect(gate.begin(now: 1))
        #expect(gate.running == 2)
    }

    @Test func startsPerWindowAreBoundedAndTheWindowResets() {
        var gate = StrangerExchangeGate(maxConcurrent: 10, maxStartsPerWindow: 3, window: 60)
        for _ in 0..<3 {
            #expect(gate.begin(now: 100))
            gate.end()
        }
        #expect(!gate.begin(now: 159))
        #expect(gate.begin(now: 160))
        gate.end()
        gate.end()
        #expect(gate.running == 0)
    }
}
