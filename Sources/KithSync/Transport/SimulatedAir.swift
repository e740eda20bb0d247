import KithCanonical
import Synchronization

/// The shared state of a ``SimulatedBLELink`` pair: queues, virtual clocks, loss and counters.
///
/// Time is virtual. A frame occupies the shared medium for (bytes + overhead) × 8 / bandwidth
/// seconds starting when both the sender and the medium are free, and arrives `latency` later; a
/// receiver's clock jumps to the arrival time. When both sides wait in `receive` with nothing in
/// flight, nothing can ever arrive, so both fail with ``SyncTransportError/idleTimeout`` after
/// advancing their clocks by the idle timeout (what a real link's timer would do). A side that
/// declared send work (``SyncTransport/sendingBegan()``) is never stuck; one that did not may
/// still have a task about to send, so the timeout waits a real-time grace period without
/// activity first.
actor SimulatedAir {
    private struct InFlight {
        var frame: [UInt8]
        var arrival: Double
    }

    let configuration: SimulatedBLEConfiguration
    private var queues: [[InFlight]] = [[], []]
    private var queueHeads = [0, 0]
    private var waiters: [CheckedContinuation<Result<[UInt8], SyncTransportError>, Never>?] = [nil, nil]
    private var clocks: [Double] = [0, 0]
    private var mediumFreeAt: Double = 0
    private var closed = false
    private var random: SplitMix64
    private var statistics = SimulatedAirStatistics()
    private(set) var transcript: [[UInt8]] = []
    private var activity = 0
    private var watchdogArmed = false
    /// Send work declared per side. Updated synchronously so a declaration is in force before the
    /// declaring call returns; the ends may overtake the beginnings they balance (the count is
    /// then briefly negative), and every change re-checks for a stall.
    nonisolated let declaredSenders = Mutex<[Int]>([0, 0])

    init(configuration: SimulatedBLEConfiguration) {
        self.configuration = configuration
        random = SplitMix64(seed: configuration.lossSeed)
    }

    func now(side: Int) -> Double { clocks[side] }

    func currentStatistics() -> SimulatedAirStatistics {
        var snapshot = statistics
        snapshot.elapsedSeconds = max(clocks[0], clocks[1])
        snapshot.airTimeSeconds = Double(statistics.bytesOnAir * 8) / configuration.bandwidthBitsPerSecond
        return snapshot
    }

    func send(_ frame: [UInt8], from side: Int) throws(SyncTransportError) {
        if statistics.disconnected { throw .disconnected }
        if closed { throw .closed }
        activity += 1
        guard !frame.isEmpty else { throw .emptyFrame }
        guard frame.count <= configuration.mtu else { throw .frameTooLarge(size: frame.count, mtu: configuration.mtu) }
        let airBytes = frame.count + configuration.perFrameOverheadBytes
        let start = max(clocks[side], mediumFreeAt)
        let end = start + Double(airBytes * 8) / configuration.bandwidthBitsPerSecond
        mediumFreeAt = end
        clocks[side] = end
        statistics.bytesOnAir += airBytes
        if configuration.recordsTranscript { transcript.append(frame) }
        statistics.framesOnAir += 1
        let crossesByteLimit = configuration.disconnectAfterBytes.map { statistics.bytesOnAir > $0 } ?? false
        let crossesTimeLimit = configuration.disconnectAfterSeconds.map { end > $0 } ?? false
        if crossesByteLimit || crossesTimeLimit {
            statistics.framesLost += 1
            disconnect(at: start)
            throw .disconnected
        }
        if statistics.framesOnAir > configuration.lossStartsAfterFrames,
           configuration.lossProbability > 0,
           random.nextUnit() < configuration.lossProbability {
            statistics.framesLost += 1
            return
        }
        let peer = 1 - side
        let arrival = end + configuration.latencySeconds
        if let waiter = waiters[peer] {
            waiters[peer] = nil
            clocks[peer] = max(clocks[peer], arrival)
            statistics.framesDelivered += 1
            waiter.resume(returning: .success(frame))
        } else {
            queues[peer].append(InFlight(frame: frame, arrival: arrival))
        }
    }

    func receive(side: Int) async throws(SyncTransportError) -> [UInt8] {
        activity += 1
        if queueHeads[side] < queues[side].count {
            let next = queues[side][queueHeads[side]]
            queueHeads[side] += 1
            if queueHeads[side] == queues[side].count {
                queues[side].removeAll(keepingCapacity: true)
                queueHeads[side] = 0
            }
            clocks[side] = max(clocks[side], next.arrival)
            statistics.framesDelivered += 1
            return next.frame
        }
        if statistics.disconnected { throw .disconnected }
        if closed { throw .closed }
        guard waiters[side] == nil else { throw .concurrentReceive }
        let result = await withCheckedContinuation { continuation in
            waiters[side] = continuation
            resolveDeadlock()
        }
        return try result.get()
    }

    /// Called after each change of ``declaredSenders``.
    func declarationsChanged() {
        activity += 1
        resolveDeadlock()
    }

    func close() {
        guard !closed else { return }
        closed = true
        failWaiters(with: .closed)
    }

    /// Drops the link at virtual time `time`: frames that arrive by then are still delivered,
    /// later ones are lost, so what a receiver gets does not depend on task scheduling.
    private func disconnect(at time: Double) {
        statistics.disconnected = true
        for side in 0..<2 {
            let pending = queues[side][queueHeads[side]...]
            let kept = pending.filter { $0.arrival <= time }
            statistics.framesLost += pending.count - kept.count
            queues[side] = Array(kept)
            queueHeads[side] = 0
        }
        failWaiters(with: .disconnected)
    }

    private func failWaiters(with error: SyncTransportError) {
        for side in 0..<2 {
            if let waiter = waiters[side] {
                waiters[side] = nil
                waiter.resume(returning: .failure(error))
            }
        }
    }

    private var bothStuck: Bool {
        waiters[0] != nil && waiters[1] != nil
            && queueHeads[0] == queues[0].count && queueHeads[1] == queues[1].count
            && declaredSenders.withLock { $0 == [0, 0] }
    }

    /// Both sides waiting with empty queues and no declared send work can only be woken by an
    /// undeclared task of theirs that is about to send. Wait a short real-time grace period; if
    /// nothing happened, time both out.
    private func resolveDeadlock() {
        guard bothStuck, !watchdogArmed else { return }
        watchdogArmed = true
        let snapshot = activity
        let grace = configuration.stallDetectionGraceSeconds
        Task {
            try? await Task.sleep(for: .seconds(grace))
            fireWatchdog(snapshot)
        }
    }

    private func fireWatchdog(_ snapshot: Int) {
        watchdogArmed = false
        guard bothStuck else { return }
        guard activity == snapshot else {
            resolveDeadlock()
            return
        }
        let timeout = max(clocks[0], clocks[1]) + configuration.idleTimeoutSeconds
        clocks = [timeout, timeout]
        failWaiters(with: .idleTimeout)
    }
}
