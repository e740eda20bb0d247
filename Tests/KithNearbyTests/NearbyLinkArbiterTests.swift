import KithSync
import Synchronization
import Testing
@testable import KithNearby

@Suite("Nearby link arbiter (simultaneous connects)")
struct NearbyLinkArbiterTests {
    let low: [UInt8] = [0x01] + [UInt8](repeating: 0, count: 31)
    let high: [UInt8] = [0x02] + [UInt8](repeating: 0, count: 31)

    @Test("the lower key dials first; the higher waits")
    func dialOrder() async {
        #expect(NearbyLinkArbiter(localKey: low).dialsFirst(high))
        #expect(!NearbyLinkArbiter(localKey: high).dialsFirst(low))
        let arbiter = NearbyLinkArbiter(localKey: low)
        #expect(await arbiter.shouldDial(high))
        #expect(await !arbiter.shouldDial(high))  // a dial is in progress
        await arbiter.dialFinished(high)
        #expect(await arbiter.shouldDial(high))
    }

    @Test("both sides keep the link initiated by the lower key, whatever the arrival order")
    func sameLinkSurvives() async {
        // Link L was dialed by `low`, link H by `high`. Each side sees both, in either order.
        for lowSeesLFirst in [true, false] {
            for highSeesLFirst in [true, false] {
                let lowSide = NearbyLinkArbiter(localKey: low)
                let highSide = NearbyLinkArbiter(localKey: high)
                let closed = Mutex<Set<String>>([])
                func close(_ side: String, _ link: String) -> @Sendable () async -> Void {
                    { closed.withLock { _ = $0.insert("\(side):\(link)") } }
                }
                var lowRuns: [String: Bool] = [:]
                for link in lowSeesLFirst ? ["L", "H"] : ["H", "L"] {
                    let verdict = await lowSide.claim(peer: high, initiatedLocally: link == "L", close: close("low", link)).verdict
                    lowRuns[link] = verdict == .run
                }
                var highRuns: [String: Bool] = [:]
                for link in highSeesLFirst ? ["L", "H"] : ["H", "L"] {
                    let verdict = await highSide.claim(peer: low, initiatedLocally: link == "H", close: close("high", link)).verdict
                    highRuns[link] = verdict == .run
                }
                let closedLinks = closed.withLock { $0 }
                // L survives on both sides: it runs, and is never closed; H is dropped or closed.
                #expect(lowRuns["L"] == true && highRuns["L"] == true)
                #expect(!closedLinks.contains("low:L") && !closedLinks.contains("high:L"))
                #expect(lowRuns["H"] == false || closedLinks.contains("low:H"))
                #expect(highRuns["H"] == false || closedLinks.contains("high:H"))
            }
        }
    }

    @Test("after a completed session the peer is neither dialed nor served again")
    func completedPeer() async {
        let arbiter = NearbyLinkArbiter(localKey: low)
        let claim = await arbiter.claim(peer: high, initiatedLocally: true) {}
        #expect(claim.verdict == .run)
        await arbiter.release(claim.id, peer: high, completed: true)
        #expect(await !arbiter.shouldDial(high))
        #expect(await arbiter.claim(peer: high, initiatedLocally: false) {}.verdict == .drop)
        #expect(await arbiter.completedPeers == [high])
    }
}
