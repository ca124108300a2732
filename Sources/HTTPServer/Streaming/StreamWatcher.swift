import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Notices that a stream's client went away while its connection waits, suspended, for the
/// next write. libmicrohttpd does not watch a suspended connection's socket, so without this a
/// closed page kept its place (and its per-address count) until the next heartbeat failed.
///
/// One epoll set holds the sockets of open streams, each registered for the peer's hang-up only
/// (`EPOLLRDHUP`, once) under a token of its own; Dispatch watches the set itself, so no thread
/// waits on it and none is made per stream. The sockets stay libmicrohttpd's: they are never
/// read, written or closed here, and never removed from the set either (a socket leaves an epoll
/// set when it is closed; a kept-alive socket registered again is modified in place). A token
/// whose stream is over is forgotten, so a late hang-up of a reused socket finds nothing.
final class StreamWatcher: Sendable {
    struct Watched {
        var streams: [UInt64: ResponseStream] = [:]
        var lastToken: UInt64 = 0
    }

    /// Dispatch runs the handler and cancels the source; the watcher only keeps it.
    struct SourceHandle: @unchecked Sendable {
        let source: any DispatchSourceRead
    }

    private let set: Int32
    private let watched = Mutex(Watched())
    private let handle: SourceHandle?

    /// Nil where epoll is missing or refused: streams are then noticed gone at a heartbeat.
    init?() {
        #if os(Linux)
            let set = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard set >= 0 else { return nil }
            self.set = set
            let source = DispatchSource.makeReadSource(fileDescriptor: set, queue: .global())
            handle = SourceHandle(source: source)
            source.setEventHandler { [weak self] in self?.drain() }
            source.setCancelHandler { close(set) }
            source.resume()
        #else
            return nil
        #endif
    }

    /// Watches `socket` for as long as `stream` is open.
    func watch(_ stream: ResponseStream, socket: Int32) {
        #if os(Linux)
            guard socket >= 0 else { return }
            let token = watched.withLock { watched in
                watched.lastToken += 1
                watched.streams[watched.lastToken] = stream
                return watched.lastToken
            }
            var event = epoll_event()
            event.events = EPOLLRDHUP.rawValue | EPOLLONESHOT.rawValue
            event.data.u64 = token
            if epoll_ctl(set, EPOLL_CTL_ADD, socket, &event) != 0 {
                // A kept-alive connection that held a stream before is in the set already.
                guard errno == EEXIST, epoll_ctl(set, EPOLL_CTL_MOD, socket, &event) == 0 else {
                    forget(token)
                    return
                }
            }
            stream.onClose { [weak self] in self?.forget(token) }
        #endif
    }

    /// Stops watching; the set is closed once Dispatch has let go of it.
    func stop() {
        handle?.source.cancel()
        watched.withLock { $0.streams = [:] }
    }

    private func forget(_ token: UInt64) {
        _ = watched.withLock { $0.streams.removeValue(forKey: token) }
    }

    /// Ends the stream of every socket whose client hung up.
    private func drain() {
        #if os(Linux)
            var events = [epoll_event](repeating: epoll_event(), count: 64)
            while true {
                let count = epoll_wait(set, &events, Int32(events.count), 0)
                guard count > 0 else { return }
                let gone = watched.withLock { watched in
                    events[0..<Int(count)].compactMap { watched.streams.removeValue(forKey: $0.data.u64) }
                }
                for stream in gone { stream.clientLeft() }
                if Int(count) < events.count { return }
            }
        #endif
    }
}
