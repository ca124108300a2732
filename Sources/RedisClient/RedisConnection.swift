import CHiredis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One blocking connection to Redis, logged in and on its database.
///
/// Used by one thread at a time: a pool hands it out and takes it back, which is why it may
/// cross threads (`@unchecked Sendable`). Once a command fails on the wire, the connection is
/// `broken` and must be dropped: hiredis keeps no usable state after an I/O error.
public final class RedisConnection: @unchecked Sendable {
    private let context: UnsafeMutablePointer<redisContext>
    public private(set) var isBroken = false

    public init(_ endpoint: RedisEndpoint, timeouts: RedisTimeouts, commandTimeout: Bool = true) throws(RedisError) {
        let connectTime = Self.timeValue(timeouts.connect)
        let made: UnsafeMutablePointer<redisContext>?
        switch endpoint.address {
        case .tcp(let host, let port): made = redisConnectWithTimeout(host, Int32(port), connectTime)
        case .unixSocket(let path): made = redisConnectUnixWithTimeout(path, connectTime)
        }
        guard let made else { throw .unreachable("out of memory") }
        if made.pointee.err != 0 {
            let reason = Self.errorText(of: made)
            redisFree(made)
            throw .unreachable(reason)
        }
        context = made
        // TCP keep-alive finds a peer that vanished without closing (the subscriber waits long).
        if case .tcp = endpoint.address { _ = redisEnableKeepAlive(context) }
        if commandTimeout { _ = redisSetTimeout(context, Self.timeValue(timeouts.command)) }
        if let password = endpoint.password { try expectOK(.auth(user: endpoint.user, password: password)) }
        if endpoint.database != 0 { try expectOK(.select(endpoint.database)) }
    }

    deinit { redisFree(context) }

    private func expectOK(_ command: RedisCommand) throws(RedisError) {
        switch try run(command) {
        case .status: return
        case .error(let message): throw .refused("\(command): \(message)")
        case let other: throw .unexpectedReply("\(command) answered \(other)")
        }
    }

    /// Sends one command and reads its reply. An error reply is returned, not thrown: callers
    /// tell a missing script from a real refusal.
    public func run(_ command: RedisCommand) throws(RedisError) -> RedisReply {
        try append(command)
        return try readReply()
    }

    /// Sends each command before reading any reply: one round trip for all of them.
    public func pipeline(_ commands: [RedisCommand]) throws(RedisError) -> [RedisReply] {
        for command in commands { try append(command) }
        var replies: [RedisReply] = []
        for _ in commands { replies.append(try readReply()) }
        return replies
    }

    /// Reads the next reply the server pushes (a subscriber's messages); blocks until one comes,
    /// the command timeout passes, or `interrupt()` is called.
    public func readReply() throws(RedisError) -> RedisReply {
        guard !isBroken else { throw .connectionLost("already broken") }
        var raw: UnsafeMutableRawPointer?
        let status = redisGetReply(context, &raw)
        guard status == REDIS_OK, let raw else { throw failure() }
        defer { freeReplyObject(raw) }
        return Self.copy(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// The reply tree hiredis made, as values; the tree itself is freed by the caller.
    private static func copy(_ reply: UnsafePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STATUS: return .status(text(value))
        case REDIS_REPLY_ERROR: return .error(text(value))
        case REDIS_REPLY_INTEGER: return .integer(Int(value.integer))
        case REDIS_REPLY_STRING: return .bulk(bytes(value))
        case REDIS_REPLY_ARRAY:
            return .array(
                (0..<value.elements).compactMap { index in tabstage_reply_element(reply, index).map { copy($0) } })
        default: return .null
        }
    }

    private static func bytes(_ reply: redisReply) -> [UInt8] {
        guard let string = reply.str, reply.len > 0 else { return [] }
        return string.withMemoryRebound(to: UInt8.self, capacity: reply.len) {
            Array(UnsafeBufferPointer(start: $0, count: reply.len))
        }
    }

    private static func text(_ reply: redisReply) -> String { String(decoding: bytes(reply), as: UTF8.self) }

    /// Sends one command without reading its reply (a subscriber's `PING`: the reply comes among
    /// its messages).
    public func send(_ command: RedisCommand) throws(RedisError) {
        try append(command)
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw failure() }
        }
    }

    /// The socket's descriptor, for a look at it without the connection (`hasInput`).
    var descriptor: Int32 { context.pointee.fd }

    /// Whether socket `descriptor` has something to read, waiting up to `timeout` for it. A
    /// closed or failed socket counts: the read then says why.
    static func hasInput(_ descriptor: Int32, waitingUpTo timeout: Duration = .zero) -> Bool {
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(min(timeout / .milliseconds(1), Double(Int32.max)).rounded(.up))
        return poll(&watched, 1, milliseconds) > 0
    }

    private var isReadable: Bool { Self.hasInput(descriptor) }

    /// The replies that have arrived, without waiting: those hiredis has already read, then
    /// whatever the socket holds now. For a subscriber read from more than one thread (under its
    /// owner's lock), where a blocking read would hold the others up.
    func arrivedReplies() throws(RedisError) -> [RedisReply] {
        guard !isBroken else { throw .connectionLost("already broken") }
        var replies = try bufferedReplies()
        if isReadable {
            guard redisBufferRead(context) == REDIS_OK else { throw failure() }
            replies += try bufferedReplies()
        }
        return replies
    }

    /// The complete replies in hiredis's read buffer, taking none from the socket.
    private func bufferedReplies() throws(RedisError) -> [RedisReply] {
        var replies: [RedisReply] = []
        while true {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw failure() }
            guard let raw else { return replies }
            defer { freeReplyObject(raw) }
            replies.append(Self.copy(raw.assumingMemoryBound(to: redisReply.self)))
        }
    }

    /// Wakes a thread blocked in `readReply()` from another thread; the connection is then broken.
    public func interrupt() { tabstage_redis_shutdown(context) }

    /// Whether the server closed this idle connection (it restarted, or dropped idle clients):
    /// a look at the socket without waiting, so a pool never hands out a dead one.
    var isClosedByPeer: Bool {
        var byte: UInt8 = 0
        let received = recv(context.pointee.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if received == 0 { return true }
        return received < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
    }

    /// Queues a command in hiredis's output buffer; all arguments are binary-safe.
    private func append(_ command: RedisCommand) throws(RedisError) {
        guard !isBroken else { throw .connectionLost("already broken") }
        let arguments = command.parts
        // One buffer for every argument, so the pointer list points into memory that stays put.
        var joined: [UInt8] = []
        joined.reserveCapacity(arguments.reduce(0) { $0 + $1.count })
        var lengths: [Int] = []
        lengths.reserveCapacity(arguments.count)
        for argument in arguments {
            joined.append(contentsOf: argument)
            lengths.append(argument.count)
        }
        // A zero-length buffer may have no address; one spare byte gives every pointer a base.
        joined.append(0)
        let status = joined.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return REDIS_ERR }
            var pointers: [UnsafePointer<CChar>?] = []
            pointers.reserveCapacity(arguments.count)
            var offset = 0
            for length in lengths {
                pointers.append(UnsafeRawPointer(base + offset).assumingMemoryBound(to: CChar.self))
                offset += length
            }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { argvlen in
                    redisAppendCommandArgv(context, Int32(arguments.count), argv.baseAddress, argvlen.baseAddress)
                }
            }
        }
        guard status == REDIS_OK else { throw failure() }
    }

    private func failure() -> RedisError {
        isBroken = true
        let reason = Self.errorText(of: context)
        if context.pointee.err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK) { return .timedOut }
        return .connectionLost(reason)
    }

    private static func errorText(of context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "error \(context.pointee.err)" : text
        }
    }

    private static func timeValue(_ duration: Duration) -> timeval {
        let (seconds, attoseconds) = duration.components
        return timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }
}
