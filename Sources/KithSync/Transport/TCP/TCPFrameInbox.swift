import NIOCore
import Synchronization

/// Frames received on a TCP connection, waiting for ``TCPTransport/receive()``.
///
/// Bounded: once ``SyncLimits/tcpInboxHighWatermark`` frames wait, the channel stops reading
/// (TCP flow control then slows the peer down) until the reader has drained half of them.
final class TCPFrameInbox: Sendable {
    private struct State {
        var frames: [[UInt8]] = []
        var head = 0
        var waiter: CheckedContinuation<Result<[UInt8], SyncTransportError>, Never>?
        var ending: SyncTransportError?
        var readingPaused = false
        var count: Int { frames.count - head }
    }

    private let state = Mutex(State())

    /// Called on the event loop with each decoded frame; returns true when reading should pause.
    func deliver(_ frame: [UInt8]) -> Bool {
        let waiter: CheckedContinuation<Result<[UInt8], SyncTransportError>, Never>?
        let pause: Bool
        (waiter, pause) = state.withLock { state in
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, false)
            }
            state.frames.append(frame)
            if state.count >= SyncLimits.tcpInboxHighWatermark, !state.readingPaused {
                state.readingPaused = true
                return (nil, true)
            }
            return (nil, false)
        }
        waiter?.resume(returning: .success(frame))
        return pause
    }

    /// Ends the stream: frames already queued are still returned, then `error`.
    func finish(_ error: SyncTransportError) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<[UInt8], SyncTransportError>, Never>? in
            if state.ending == nil { state.ending = error }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .failure(error))
    }

    /// The next frame; `resume` is called when reading should restart after a pause.
    func next(resume: @Sendable () -> Void) async throws(SyncTransportError) -> [UInt8] {
        enum Step { case frame([UInt8], resume: Bool), failure(SyncTransportError), wait }
        let step = state.withLock { state -> Step in
            if state.head < state.frames.count {
                let frame = state.frames[state.head]
                state.head += 1
                if state.head == state.frames.count {
                    state.frames.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                if state.readingPaused, state.count <= SyncLimits.tcpInboxHighWatermark / 2 {
                    state.readingPaused = false
                    return .frame(frame, resume: true)
                }
                return .frame(frame, resume: false)
            }
            if let ending = state.ending { return .failure(ending) }
            if state.waiter != nil { return .failure(.concurrentReceive) }
            return .wait
        }
        switch step {
        case .frame(let frame, let shouldResume):
            if shouldResume { resume() }
            return frame
        case .failure(let error):
            throw error
        case .wait:
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[UInt8], SyncTransportError>, Never>) in
                let immediate = state.withLock { state -> Result<[UInt8], SyncTransportError>? in
                    if state.head < state.frames.count {
                        let frame = state.frames[state.head]
                        state.head += 1
                        return .success(frame)
                    }
                    if let ending = state.ending { return .failure(ending) }
                    state.waiter = continuation
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
            return try result.get()
        }
    }
}
