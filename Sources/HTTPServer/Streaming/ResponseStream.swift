import CMicroHTTPD
import Synchronization

/// A response body written while its connection stays open, for as long as the handler keeps
/// writing (an event stream, say). The handler returns `Response.stream(_:headers:)` at once and
/// writes later, from any thread; the server sends what was written and, when nothing is left,
/// suspends the connection (no thread waits on it, nothing polls it) until the next write.
///
/// The stream knows nothing about what it carries; only its optional `heartbeat` bytes, which
/// the server writes into a stream that stayed silent for a whole heartbeat interval (a proxy
/// keeps a connection that talks, and a client that went away is noticed on that write).
public final class ResponseStream: Sendable {
    /// The connection pointer is used only under `state`'s lock, while libmicrohttpd keeps the
    /// connection (until the response's free callback).
    struct ConnectionHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    struct State {
        /// Written and not yet handed to libmicrohttpd, from `sentUpTo` on.
        var pending: [UInt8] = []
        var sentUpTo = 0
        var connection: ConnectionHandle?
        var isSuspended = false
        /// `finish()` was called: what is pending is sent, then the response ends.
        var isFinished = false
        /// The client left, or libmicrohttpd is done with the connection: nothing written is
        /// sent any more.
        var isGone = false
        var wroteSinceHeartbeat = false
        var onClose: [@Sendable () -> Void] = []
    }

    let state = Mutex(State())
    public let heartbeat: [UInt8]

    public init(heartbeat: [UInt8] = []) {
        self.heartbeat = heartbeat
    }

    /// Whether written bytes can still reach the client.
    public var isOpen: Bool { state.withLock { !$0.isGone && !$0.isFinished } }

    /// Queues `bytes` for the client; false once the stream is finished or the client is gone.
    ///
    /// Unless `waking` is false, the connection is woken to send them. A fan-out to many streams
    /// writes to all of them first and then wakes them in one go (`wake()`): libmicrohttpd
    /// walks every suspended connection of its thread each time it is woken to resume some, so
    /// wakes spread out between the writes cost a walk per handful of streams.
    @discardableResult
    public func write(_ bytes: [UInt8], waking: Bool = true) -> Bool {
        state.withLock { state in
            guard !state.isGone, !state.isFinished else { return false }
            state.pending.append(contentsOf: bytes)
            state.wroteSinceHeartbeat = true
            if waking { Self.wake(&state) }
            return true
        }
    }

    /// Wakes the connection to send what was written without waking it.
    public func wake() {
        state.withLock { Self.wake(&$0) }
    }

    /// Ends the response once what was written is sent.
    public func finish() {
        state.withLock { state in
            guard !state.isGone, !state.isFinished else { return }
            state.isFinished = true
            Self.wake(&state)
        }
    }

    /// Runs `body` once, when the stream is over (the client left, the stream was finished and
    /// sent, or the server stopped); at once if it is over already. `body` must not block.
    public func onClose(_ body: @escaping @Sendable () -> Void) {
        let isGone = state.withLock { state in
            if !state.isGone { state.onClose.append(body) }
            return state.isGone
        }
        if isGone { body() }
    }

    /// Resuming a connection that is not suspended is undefined in libmicrohttpd: the flag,
    /// set and cleared under the lock with the calls themselves, says which it is.
    private static func wake(_ state: inout State) {
        guard state.isSuspended, let connection = state.connection else { return }
        state.isSuspended = false
        MHD_resume_connection(connection.pointer)
    }

    // MARK: The server's side

    func attach(to connection: OpaquePointer) {
        state.withLock { $0.connection = ConnectionHandle(pointer: connection) }
    }

    /// Queues the heartbeat, unless something was written since the last call, without waking
    /// the connection: true when the stream is to be woken (`wake()`) to send it.
    func beat() -> Bool {
        let isSilent = state.withLock { state in
            defer { state.wroteSinceHeartbeat = false }
            return !state.wroteSinceHeartbeat
        }
        return isSilent && !heartbeat.isEmpty && write(heartbeat, waking: false)
    }

    /// What libmicrohttpd's content reader gets next.
    enum Next {
        /// This many pending bytes were copied into the reader's buffer, to send now.
        case copied(Int)
        /// Nothing pending: the connection is suspended until a write resumes it (answering
        /// nothing without suspending would be asked again at once: a busy loop).
        case suspended
        /// The stream is over.
        case end
    }

    /// Copies the next pending bytes into `buffer` (libmicrohttpd's, at most its size), with no
    /// array made on the way: a fan-out to every open stream allocates nothing per stream here.
    func next(into buffer: UnsafeMutableRawBufferPointer) -> Next {
        state.withLock { state in
            let available = state.pending.count - state.sentUpTo
            if available > 0 {
                let count = min(available, buffer.count)
                let start = state.sentUpTo
                state.pending.withUnsafeBytes { pending in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: pending[start..<(start + count)]))
                }
                state.sentUpTo += count
                if state.sentUpTo == state.pending.count {
                    state.pending.removeAll(keepingCapacity: state.pending.capacity <= 4096)
                    state.sentUpTo = 0
                }
                return .copied(count)
            }
            if state.isFinished || state.isGone { return .end }
            guard let connection = state.connection else { return .end }
            state.isSuspended = true
            MHD_suspend_connection(connection.pointer)
            return .suspended
        }
    }

    /// libmicrohttpd's answer for "the response is over".
    static let endOfStream = -1

    /// The client hung up (`StreamWatcher`): the stream is over at once, so its place is free
    /// and nothing more is queued, and a suspended connection is resumed so that libmicrohttpd
    /// ends the response and releases it.
    func clientLeft() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isGone else { return [] }
            state.isGone = true
            state.pending = []
            state.sentUpTo = 0
            Self.wake(&state)
            defer { state.onClose = [] }
            return state.onClose
        }
        for handler in handlers { handler() }
    }

    /// libmicrohttpd released the response: the connection is gone.
    func released() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            state.isGone = true
            state.connection = nil
            state.pending = []
            defer { state.onClose = [] }
            return state.onClose
        }
        for handler in handlers { handler() }
    }
}
