import CMicroHTTPD
import Dispatch
import Synchronization

/// The open streams of a server, counted per client address so that limits hold.
struct StreamBook {
    var open: [ObjectIdentifier: ResponseStream] = [:]
    var perAddress: [String: Int] = [:]
    var heartbeat: HeartbeatTimer?
    var watcher: StreamWatcher?

    /// Why a stream cannot be opened, nil when it can.
    func refusal(address: String, limits: StreamLimits) -> String? {
        if open.count >= limits.maxStreams { return "the server holds as many open pages as it allows" }
        if perAddress[address, default: 0] >= limits.maxStreamsPerAddress {
            return "this address holds as many open pages as one address may"
        }
        return nil
    }
}

/// The heartbeat's timer: Dispatch runs its handler; the book only keeps it to cancel it.
struct HeartbeatTimer: @unchecked Sendable {
    let timer: any DispatchSourceTimer
}

/// How many streams a server keeps open, and how often a silent one gets its heartbeat.
public struct StreamLimits: Sendable, Equatable {
    /// Open streams in all; past it a stream request gets 503 (other requests are not affected).
    public var maxStreams: Int
    /// Open streams one client address may hold; past it, 503 for its stream requests.
    public var maxStreamsPerAddress: Int
    /// A stream silent this long is sent its heartbeat bytes.
    public var heartbeatSeconds: Double

    public init(maxStreams: Int = 4000, maxStreamsPerAddress: Int = 64, heartbeatSeconds: Double = 15) {
        self.maxStreams = maxStreams
        self.maxStreamsPerAddress = maxStreamsPerAddress
        self.heartbeatSeconds = heartbeatSeconds
    }
}

extension Server {
    /// Streams open now.
    public var openStreamCount: Int { streams.withLock { $0.open.count } }

    /// Queues `stream`'s response on `connection`, or a 503 when a limit is reached (or the
    /// threading model cannot suspend connections).
    func queueStream(
        _ stream: ResponseStream, status: HTTPStatus, headers: HTTPHeaders, connection: OpaquePointer
    ) -> (result: MHD_Result, status: HTTPStatus) {
        guard case .threadPool = configuration.threading else {
            return refuseStream("streams need the thread-pool threading model", connection)
        }
        // Behind a trusted proxy every visitor arrives from the proxy's address: counted by the
        // address it forwards instead, one visitor's windows cannot take every visitor's places.
        let address = clientAddress(of: connection)
        let key = ObjectIdentifier(stream)
        let refusal = streams.withLock { book -> String? in
            if let refusal = book.refusal(address: address, limits: configuration.streamLimits) { return refusal }
            book.open[key] = stream
            book.perAddress[address, default: 0] += 1
            return nil
        }
        if let refusal { return refuseStream(refusal, connection) }
        stream.onClose { [weak self] in
            self?.streams.withLock { book in
                book.open[key] = nil
                let left = book.perAddress[address, default: 1] - 1
                book.perAddress[address] = left > 0 ? left : nil
            }
        }
        stream.attach(to: connection)
        streams.withLock { $0.watcher }?.watch(stream, socket: tabstage_connection_socket(connection))
        let reader: MHD_ContentReaderCallback = { cls, _, buffer, max in
            guard let cls, let buffer else { return ResponseStream.endOfStream }
            let stream = Unmanaged<ResponseStream>.fromOpaque(cls).takeUnretainedValue()
            // libmicrohttpd's buffer is written here, in its callback, and nowhere else.
            switch stream.next(into: UnsafeMutableRawBufferPointer(start: buffer, count: max)) {
            case .copied(let count): return count
            case .suspended: return 0
            case .end: return ResponseStream.endOfStream
            }
        }
        let released: MHD_ContentReaderFreeCallback = { cls in
            guard let cls else { return }
            let stream = Unmanaged<ResponseStream>.fromOpaque(cls).takeRetainedValue()
            stream.released()
        }
        let retained = Unmanaged.passRetained(stream).toOpaque()
        // The block is allocated (and zeroed) with each stream's response and lives as long as the
        // stream: at 10,000 streams every 1 KB of it was 10 MB. A chunked response (HTTP/1.1) is
        // read straight into the connection's buffer; only an HTTP/1.0 client's is read through
        // the block, in parts of its size, and an event is a few dozen bytes.
        guard let response = MHD_create_response_from_callback(UInt64.max, 256, reader, retained, released)
        else {
            Unmanaged<ResponseStream>.fromOpaque(retained).takeRetainedValue().released()
            return (.NO, .internalServerError)
        }
        defer { MHD_destroy_response(response) }
        var headers = headers
        headers.addNoSniff()
        _ = Self.addHeaders(headers, to: response)
        return (MHD_queue_response(connection, UInt32(status.rawValue), response), status)
    }

    private func refuseStream(_ reason: String, _ connection: OpaquePointer) -> (
        result: MHD_Result, status: HTTPStatus
    ) {
        var response = Response.statusPage(.serviceUnavailable, message: reason)
        response.headers["Retry-After"] = "10"
        response.headers.addNoSniff()
        guard let refused = Self.makeResponse(lending: response.body) else { return (.NO, .serviceUnavailable) }
        defer { MHD_destroy_response(refused) }
        _ = Self.addHeaders(response.headers, to: refused)
        return (MHD_queue_response(connection, 503, refused), .serviceUnavailable)
    }

    /// Starts the timer that writes heartbeats into silent streams.
    func startHeartbeat() {
        let interval = configuration.streamLimits.heartbeatSeconds
        guard interval > 0 else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            // Every silent stream is written, then all are woken together (`ResponseStream.write`).
            let beating = streams.withLock { Array($0.open.values) }.filter { $0.beat() }
            for stream in beating { stream.wake() }
        }
        streams.withLock { $0.heartbeat = HeartbeatTimer(timer: timer) }
        timer.resume()
    }

    /// Starts watching streams' sockets for clients that hang up (`StreamWatcher`).
    func startWatchingStreams() {
        guard case .threadPool = configuration.threading else { return }
        let watcher = StreamWatcher()
        streams.withLock { $0.watcher = watcher }
    }

    /// Finishes every open stream (libmicrohttpd must not be stopped with suspended connections)
    /// and stops the heartbeat and the watcher.
    func finishStreams() {
        let (open, timer, watcher) = streams.withLock { book in
            defer {
                book.heartbeat = nil
                book.watcher = nil
            }
            return (Array(book.open.values), book.heartbeat, book.watcher)
        }
        timer?.timer.cancel()
        watcher?.stop()
        for stream in open { stream.finish() }
    }
}
