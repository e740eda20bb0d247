import NIOCore
import Synchronization

/// The outbox of a connection served by a ``SignalingChannelHandler``: frames queue here (from
/// any thread, in order) and the handler writes them on its event loop, one hop and one flush per
/// batch, not a task per connection.
final class ChannelSignalingOutbox: SignalingOutbox {
    private let eventLoop: any EventLoop
    private let queue: Mutex<Queue>

    private struct Queue {
        var frames: [SignalingOutbound] = []
        /// A drain is scheduled on the event loop and has not taken the frames yet.
        var scheduled = false
        var finished = false
        /// Who drains; nil once the handler left the pipeline (breaks the reference cycle
        /// handler → connection → outbox → handler).
        var handler: NIOLoopBound<SignalingChannelHandler>?
    }

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        queue = Mutex(Queue())
    }

    /// Names the handler that drains the queue (on its event loop).
    func attach(_ handler: NIOLoopBound<SignalingChannelHandler>) {
        queue.withLock { $0.handler = handler }
    }

    /// Forgets the handler: frames queued from now on are dropped.
    func detach() {
        queue.withLock { queue in
            queue.handler = nil
            queue.finished = true
            queue.frames = []
        }
    }

    func push(_ frame: SignalingOutbound) -> Bool {
        let drainer: NIOLoopBound<SignalingChannelHandler>?? = queue.withLock { queue in
            guard !queue.finished, let handler = queue.handler else { return .some(nil) }
            queue.frames.append(frame)
            guard !queue.scheduled else { return .none }
            queue.scheduled = true
            return .some(handler)
        }
        switch drainer {
        case .none: return true
        case .some(.none): return false
        case .some(.some(let handler)):
            eventLoop.execute { handler.value.drainOutbox() }
            return true
        }
    }

    func finish() {
        let drainer: NIOLoopBound<SignalingChannelHandler>? = queue.withLock { queue in
            guard !queue.finished else { return nil }
            queue.finished = true
            guard !queue.scheduled, let handler = queue.handler else { return nil }
            queue.scheduled = true
            return handler
        }
        if let drainer { eventLoop.execute { drainer.value.drainOutbox() } }
    }

    /// Takes the queued frames (on the event loop); `finished` once no more will come.
    func take() -> (frames: [SignalingOutbound], finished: Bool) {
        queue.withLock { queue in
            let frames = queue.frames
            queue.frames = []
            queue.scheduled = false
            return (frames, queue.finished)
        }
    }
}
