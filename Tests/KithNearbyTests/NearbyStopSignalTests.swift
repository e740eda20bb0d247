import Testing
@testable import KithNearby

@Suite("the end of a discovery window", .timeLimit(.minutes(3)))
struct NearbyStopSignalTests {
    @Test("stop wakes every wait of the window long before its deadline, and later waits return at once")
    func stopWakesWaiters() async {
        let signal = NearbyStopSignal()
        // Each wait is an hour: only stop() can end them within the suite's time limit.
        async let first: Void = signal.sleep(seconds: 3600)
        async let second: Void = signal.sleep(until: ContinuousClock.now + .seconds(3600))
        #expect(!signal.isStopped)
        signal.stop()
        signal.stop()
        _ = await (first, second)
        #expect(signal.isStopped)
        await signal.sleep(seconds: 3600)
    }

    @Test("a cancelled wait returns without the window ending")
    func cancelledWaitReturns() async {
        let signal = NearbyStopSignal()
        let wait = Task { await signal.sleep(seconds: 3600) }
        wait.cancel()
        await wait.value
        #expect(!signal.isStopped)
    }
}
