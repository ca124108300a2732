import Snapshots

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tabstage healthcheck [URL]`: one GET, exit 0 on a 2xx answer. The container image has no
/// curl, so its HEALTHCHECK runs the binary itself (see Containerfile and docs/hosting.md).
enum HealthcheckCommand: Subcommand {
    static let name = "healthcheck"
    static let summary = "Exit 0 when a URL answers 2xx (a container's health check)"
    static let defaultURL = "http://127.0.0.1:8080/healthz"
    static let usage = """
        Usage: tabstage healthcheck [--timeout SECONDS] [URL]

        Sends one GET to URL (default \(defaultURL)) and exits 0 when the answer's
        status is 2xx, printing 'URL: STATUS'; exits 1 with the status or the connection's
        error otherwise. URL is plain http://HOST[:PORT][/PATH], HOST a name, an IPv4 address or
        an IPv6 one in brackets. /healthz answers 503 while the session store cannot serve.

        Options:
          --timeout SECONDS   Give up after this long, connecting and reading (default 5)

        """
    static let options: [OptionSpec] = [OptionSpec("timeout")]

    /// Where the GET goes, read from an http:// URL.
    struct Target: Equatable {
        var host: String
        var port: UInt16
        var path: String

        init(url: String) throws(UsageError) {
            let scheme = "http://"
            guard url.hasPrefix(scheme) else { throw UsageError("the URL must start with http://, not '\(url)'") }
            let rest = url.dropFirst(scheme.count)
            let authority = rest.prefix { $0 != "/" }
            path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
            var hostPart = Substring(authority)
            var portText: Substring?
            if hostPart.hasPrefix("[") {
                guard let close = hostPart.firstIndex(of: "]") else { throw UsageError("no ']' in '\(url)'") }
                let after = hostPart[hostPart.index(after: close)...]
                hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else { throw UsageError("unexpected '\(after)' in '\(url)'") }
                    portText = after.dropFirst()
                }
            } else if let colon = hostPart.lastIndex(of: ":") {
                portText = hostPart[hostPart.index(after: colon)...]
                hostPart = hostPart[..<colon]
            }
            guard !hostPart.isEmpty else { throw UsageError("no host in '\(url)'") }
            host = String(hostPart)
            if let portText {
                guard let number = UInt16(portText), number > 0 else {
                    throw UsageError("the port must be a number from 1 to 65535, not '\(portText)'")
                }
                port = number
            } else {
                port = 80
            }
        }
    }

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        let target: Target
        let timeout: Int
        do throws(UsageError) {
            guard parsed.positionals.count <= 1 else { throw UsageError("give at most one URL") }
            target = try Target(url: parsed.positionals.first ?? defaultURL)
            timeout = try parsed.integer("timeout", default: 5, in: 1...600)
        } catch {
            return TabStageCLI.usageError(error, for: self, console: console)
        }
        let url = parsed.positionals.first ?? defaultURL
        switch statusLine(of: target, timeoutSeconds: timeout) {
        case .success(let line):
            // "HTTP/1.1 200 OK": the status and its reason.
            let status = line.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? line
            guard status.hasPrefix("2") else {
                console.err("tabstage healthcheck: \(url): \(status)\n")
                return ExitCode.failure
            }
            console.out("\(url): \(status)\n")
            return ExitCode.success
        case .failure(let problem):
            console.err("tabstage healthcheck: \(url): \(problem.message)\n")
            return ExitCode.failure
        }
    }

    struct Problem: Error {
        let message: String
    }

    /// Connects (trying each address the host has), sends the GET and reads the status line.
    static func statusLine(of target: Target, timeoutSeconds: Int) -> Result<String, Problem> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(target.host, String(target.port), &hints, &found)
        guard resolved == 0, let first = found else {
            return .failure(
                Problem(message: "cannot resolve '\(target.host)': \(String(cString: gai_strerror(resolved)))"))
        }
        defer { freeaddrinfo(first) }
        var lastError: Int32 = 0
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let descriptor = openConnection(to: address.pointee, timeoutSeconds: timeoutSeconds)
            guard descriptor >= 0 else {
                lastError = -descriptor
                continue
            }
            defer { close(descriptor) }
            return exchange(on: descriptor, target: target)
        }
        let reason = String(cString: strerror(lastError))
        return .failure(Problem(message: "cannot connect to \(target.host) port \(target.port): \(reason)"))
    }

    /// A connected socket with send and receive timeouts, or minus the error number.
    private static func openConnection(to address: addrinfo, timeoutSeconds: Int) -> Int32 {
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { return -errno }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        let size = socklen_t(MemoryLayout<timeval>.size)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, size)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, size)
        // On Linux SO_SNDTIMEO also bounds a blocking connect.
        guard connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 else {
            let error = errno
            close(descriptor)
            return -(error == EINPROGRESS ? ETIMEDOUT : error)
        }
        return descriptor
    }

    private static func exchange(on descriptor: Int32, target: Target) -> Result<String, Problem> {
        let host = target.host.contains(":") ? "[\(target.host)]" : target.host
        let request = Array(
            ("GET \(target.path) HTTP/1.1\r\nHost: \(host):\(target.port)\r\n"
                + "User-Agent: tabstage-healthcheck\r\nConnection: close\r\n\r\n").utf8)
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else {
                return .failure(Problem(message: "cannot send: \(String(cString: strerror(errno)))"))
            }
            sent += written
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !received.contains(0x0A), received.count < 8192 {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                let reason = errno == EAGAIN ? "no answer in time" : String(cString: strerror(errno))
                return .failure(Problem(message: "cannot read the answer: \(reason)"))
            }
            if count == 0 { break }
            received += buffer[0..<count]
        }
        let line = String(decoding: received.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        guard line.hasPrefix("HTTP/1."), line.split(separator: " ").count >= 2 else {
            return .failure(Problem(message: "not an HTTP answer: '\(line.prefix(80))'"))
        }
        return .success(line)
    }
}
