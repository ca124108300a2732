import HTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 client over a plain TCP socket, for driving a real server in tests.
///
/// It sends exactly the bytes it is told to (so malformed requests can be tested), reads one
/// response per request, and with `keepAlive` reuses one connection while the server allows it;
/// `connectionsOpened` shows whether it did. Not thread-safe: use one client per task.
public final class HTTPTestClient {
    public let host: String
    public let port: UInt16
    public let keepAlive: Bool
    public let timeoutSeconds: Int
    /// How many TCP connections this client has opened so far.
    public private(set) var connectionsOpened = 0

    private var socket: Int32 = -1
    private var pending: [UInt8] = []

    public init(port: UInt16, host: String = "127.0.0.1", keepAlive: Bool = false, timeoutSeconds: Int = 10) {
        self.host = host
        self.port = port
        self.keepAlive = keepAlive
        self.timeoutSeconds = timeoutSeconds
    }

    deinit { close() }

    public func get(_ path: String, headers: KeyValuePairs<String, String> = [:]) throws(TestClientError)
        -> TestResponse
    {
        try request("GET", path, headers: headers)
    }

    public func head(_ path: String, headers: KeyValuePairs<String, String> = [:]) throws(TestClientError)
        -> TestResponse
    {
        try request("HEAD", path, headers: headers)
    }

    /// POSTs `form` urlencoded, in the order given.
    public func post(_ path: String, form: KeyValuePairs<String, String>, headers: KeyValuePairs<String, String> = [:])
        throws(TestClientError) -> TestResponse
    {
        let encoded = form.map { PercentDecoding.encode($0.key) + "=" + PercentDecoding.encode($0.value) }
            .joined(separator: "&")
        var allHeaders = Array(headers)
        allHeaders.append((key: "Content-Type", value: "application/x-www-form-urlencoded"))
        return try request("POST", path, headerList: allHeaders, body: Array(encoded.utf8))
    }

    public func post(
        _ path: String, body: [UInt8], contentType: String, headers: KeyValuePairs<String, String> = [:]
    ) throws(TestClientError) -> TestResponse {
        var allHeaders = Array(headers)
        allHeaders.append((key: "Content-Type", value: contentType))
        return try request("POST", path, headerList: allHeaders, body: body)
    }

    public func request(
        _ method: String, _ path: String, headers: KeyValuePairs<String, String> = [:], body: [UInt8] = []
    ) throws(TestClientError) -> TestResponse {
        try request(method, path, headerList: Array(headers), body: body)
    }

    private func request(
        _ method: String, _ path: String, headerList: [(key: String, value: String)], body: [UInt8]
    ) throws(TestClientError) -> TestResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(HTTPURL.authority(host: host, port: port))\r\n"
        for (name, value) in headerList { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        return try send(raw: Array(head.utf8) + body, isHead: method == "HEAD")
    }

    public func send(raw: String, isHead: Bool = false) throws(TestClientError) -> TestResponse {
        try send(raw: Array(raw.utf8), isHead: isHead)
    }

    /// Sends `raw` as is and reads one response. A kept-alive connection the server has closed in
    /// the meantime is replaced once, as browsers do.
    public func send(raw: [UInt8], isHead: Bool = false) throws(TestClientError) -> TestResponse {
        let reused = socket >= 0
        do {
            try writeAll(raw)
            let response = try readResponse(isHead: isHead)
            if !keepAlive || response.closesConnection { close() }
            return response
        } catch {
            close()
            guard reused,
                error == .closedBeforeResponse || error == .sendFailed(errno: EPIPE)
                    || error == .sendFailed(errno: ECONNRESET) || error == .receiveFailed(errno: ECONNRESET)
            else { throw error }
            return try send(raw: raw, isHead: isHead)
        }
    }

    /// Sends bytes without waiting for an answer (to hold a request open, or send it in pieces).
    public func write(raw: [UInt8]) throws(TestClientError) {
        try writeAll(raw)
    }

    /// Reads one response to whatever was written before.
    public func readResponse(isHead: Bool = false) throws(TestClientError) -> TestResponse {
        while true {
            let head = try readHead()
            if (100..<200).contains(head.status) { continue }
            let body = try readBody(status: head.status, headers: head.headers, isHead: isHead)
            return TestResponse(status: head.status, reasonPhrase: head.reasonPhrase, headers: head.headers, body: body)
        }
    }

    /// Sends a GET and reads only the head of its response: the body of a stream then comes
    /// piece by piece, through `readStream(until:)`.
    public func openStream(_ path: String, headers: [(name: String, value: String)] = []) throws(TestClientError)
        -> TestResponse
    {
        var head = "GET \(path) HTTP/1.1\r\nHost: \(HTTPURL.authority(host: host, port: port))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try writeAll(Array(head.utf8))
        let response = try readHead()
        streamIsChunked = response.headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true
        return TestResponse(
            status: response.status, reasonPhrase: response.reasonPhrase, headers: response.headers, body: [])
    }

    /// The stream's body (chunks decoded) up to and including the first `marker` not read yet;
    /// waits for it up to the client's timeout.
    public func readStream(until marker: String) throws(TestClientError) -> String {
        let wanted = Array(marker.utf8)
        while true {
            if streamIsChunked {
                try decodeChunks()
            } else {
                streamed += pending
                pending = []
            }
            if let end = Self.find(wanted, in: streamed) {
                let text = String(decoding: streamed[0..<(end + wanted.count)], as: UTF8.self)
                streamed.removeFirst(end + wanted.count)
                return text
            }
            if streamEnded { throw .closedBeforeResponse }
            guard try receive() > 0 else { throw .closedBeforeResponse }
        }
    }

    /// Whether the stream's last chunk (or the connection's end) was read.
    public private(set) var streamEnded = false

    /// Reads until the stream ends; what came before the end, not read yet.
    public func readStreamToEnd() throws(TestClientError) -> String {
        while !streamEnded {
            if streamIsChunked { try decodeChunks() }
            if streamEnded { break }
            if try receive() == 0 { streamEnded = true }
        }
        streamed += pending
        pending = []
        defer { streamed = [] }
        return String(decoding: streamed, as: UTF8.self)
    }

    private var streamIsChunked = false
    private var streamed: [UInt8] = []

    /// Moves every complete chunk in `pending` to `streamed`.
    private func decodeChunks() throws(TestClientError) {
        while let lineEnd = Self.find([0x0D, 0x0A], in: pending) {
            let sizeText = String(decoding: pending[0..<lineEnd], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else {
                throw .malformedResponse("chunk size '\(sizeText)'")
            }
            guard pending.count >= lineEnd + 2 + size + 2 else { return }
            streamed += pending[(lineEnd + 2)..<(lineEnd + 2 + size)]
            pending.removeFirst(lineEnd + 2 + size + 2)
            if size == 0 {
                streamEnded = true
                return
            }
        }
    }

    private static func find(_ marker: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count) where bytes[start..<start + marker.count].elementsEqual(marker) {
            return start
        }
        return nil
    }

    private struct Head {
        var status: Int
        var reasonPhrase: String
        var headers: HTTPHeaders
    }

    private func readHead() throws(TestClientError) -> Head {
        let headEnd = try readUntilHeadEnd()
        let headText = String(decoding: pending[0..<headEnd], as: UTF8.self)
        pending.removeFirst(headEnd + 4)
        var lines = headText.crlfLines
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .malformedResponse("status line '\(statusLine)'")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .malformedResponse("header line '\(line)'") }
            headers.add(
                name: String(line[..<colon]),
                value: String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }))
        }
        return Head(status: status, reasonPhrase: parts.count > 2 ? String(parts[2]) : "", headers: headers)
    }

    public func close() {
        if socket >= 0 { _ = Glibc.close(socket) }
        socket = -1
        pending = []
    }

    private func readBody(status: Int, headers: HTTPHeaders, isHead: Bool) throws(TestClientError) -> [UInt8] {
        if isHead || status == 204 || status == 304 { return [] }
        if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            var body: [UInt8] = []
            while true {
                let lineEnd = try readUntil([0x0D, 0x0A])
                let sizeText = String(decoding: pending[0..<lineEnd], as: UTF8.self)
                pending.removeFirst(lineEnd + 2)
                guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else {
                    throw .malformedResponse("chunk size '\(sizeText)'")
                }
                try fill(size + 2)
                body += pending[0..<size]
                pending.removeFirst(size + 2)
                if size == 0 { return body }
            }
        }
        if let lengthText = headers["Content-Length"] {
            guard let length = Int(lengthText) else { throw .malformedResponse("Content-Length '\(lengthText)'") }
            try fill(length)
            let body = Array(pending[0..<length])
            pending.removeFirst(length)
            return body
        }
        while try receive() > 0 {}
        let body = pending
        pending = []
        return body
    }

    private func readUntilHeadEnd() throws(TestClientError) -> Int {
        try readUntil([0x0D, 0x0A, 0x0D, 0x0A])
    }

    private func readUntil(_ marker: [UInt8]) throws(TestClientError) -> Int {
        var searchFrom = 0
        while true {
            if pending.count >= marker.count {
                for start in searchFrom...(pending.count - marker.count)
                where pending[start..<start + marker.count].elementsEqual(marker) {
                    return start
                }
                searchFrom = pending.count - marker.count + 1
            }
            guard try receive() > 0 else { throw .closedBeforeResponse }
        }
    }

    private func fill(_ count: Int) throws(TestClientError) {
        while pending.count < count {
            guard try receive() > 0 else { throw .closedBeforeResponse }
        }
    }

    private func receive() throws(TestClientError) -> Int {
        guard socket >= 0 else { throw .closedBeforeResponse }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .receiveFailed(errno: errno)
            }
            pending += buffer[0..<count]
            return count
        }
    }

    private func writeAll(_ bytes: [UInt8]) throws(TestClientError) {
        if socket < 0 { try connect() }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress?.advanced(by: offset), $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw .sendFailed(errno: errno)
            }
            offset += sent
        }
    }

    /// Connects to the first of the host's addresses that accepts: a name is resolved, an IPv4
    /// or IPv6 address taken as it is.
    private func connect() throws(TestClientError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        guard resolved == 0, let first = found else {
            throw .cannotResolve(host: host, reason: String(cString: gai_strerror(resolved)))
        }
        defer { freeaddrinfo(first) }
        var lastError: Int32 = 0
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next?.pointee {
            next = address.ai_next
            let descriptor = Glibc.socket(address.ai_family, address.ai_socktype, address.ai_protocol)
            guard descriptor >= 0 else {
                lastError = errno
                continue
            }
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            // On Linux SO_SNDTIMEO also bounds a blocking connect.
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 else {
                lastError = errno == EINPROGRESS ? ETIMEDOUT : errno
                _ = Glibc.close(descriptor)
                continue
            }
            socket = descriptor
            connectionsOpened += 1
            return
        }
        throw .connectFailed(host: host, port: port, errno: lastError)
    }
}

extension String {
    fileprivate var crlfLines: [String] {
        var lines: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: "\r\n") {
            lines.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        lines.append(String(rest))
        return lines
    }
}
