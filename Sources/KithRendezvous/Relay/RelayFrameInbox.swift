import KithSync

/// Relay frames received and not yet read, in order, bounded: the socket reader waits while it
/// is full (so the WebSocket, then TCP, slows the peer), one receiver waits while it is empty.
actor RelayFrameInbox {
    private var frames: [[UInt8]] = []
    private var head = 0
    private var receiver: CheckedContinuation<Result<[UInt8], SyncTransportError>, Never>?
    private var pushers: [CheckedContinuation<Void, Never>] = []
    private var ending: SyncTransportError?
    private let capacity: Int
    /// When the receiver began waiting, for the idle timeout.
    private var waitingSince = ContinuousClock.now

    init(capacity: Int) { self.capacity = max(1, capacity) }

    private var count: Int { frames.count - head }

    /// Adds a frame; waits while the inbox is full. Dropped once the inbox has ended.
    func push(_ frame: [UInt8]) async {
        guard ending == nil else { return }
        if let receiver {
            self.receiver = nil
            receiver.resume(returning: .success(frame))
            return
        }
        while count >= capacity && ending == nil {
            await withCheckedContinuation { pushers.append($0) }
        }
        guard ending == nil else { return }
        frames.append(frame)
    }

    /// The next frame; after ``finish(_:)``, the frames still queued, then the error.
    func next() async throws(SyncTransportError) -> [UInt8] {
        if count > 0 {
            let frame = frames[head]
            head += 1
            if head > 64 && head * 2 > frames.count {
                frames.removeFirst(head)
                head = 0
            }
            if !pushers.isEmpty { pushers.removeFirst().resume() }
            return frame
        }
        if let ending { throw ending }
        guard receiver == nil else { throw .concurrentReceive }
        waitingSince = .now
        let result = await withCheckedContinuation { receiver = $0 }
        return try result.get()
    }

    /// Ends the inbox: queued frames are still read, then `error`; the first ending wins.
    func finish(_ error: SyncTransportError) {
        guard ending == nil else { return }
        ending = error
        if let receiver {
            self.receiver = nil
            receiver.resume(returning: .failure(error))
        }
        for pusher in pushers { pusher.resume() }
        pushers = []
    }

    /// True while a receiver has waited `timeout` or longer.
    func isStalled(timeout: Duration) -> Bool {
        receiver != nil && ContinuousClock.now - waitingSince >= timeout
    }
}
