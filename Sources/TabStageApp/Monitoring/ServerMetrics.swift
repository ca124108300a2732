import Dispatch
import HTTPServer
import Metrics
import Sessions
import Synchronization

/// What `GET /metrics` reports for one instance: requests by route class and status, their
/// latency, session-store operations and errors, open connections, live sessions and open
/// streams. Every count is an atomic bumped where it happens; a scrape only reads them (and
/// asks the store for its count), so scraping every few seconds costs nothing measurable.
public final class ServerMetrics: Sendable {
    /// Requests grouped the way an operator reads them, from the method and path alone.
    public enum RouteClass: String, CaseIterable, Sendable {
        /// A page (home, tab, log-in form, event log, error pages).
        case page
        /// A form post (log-in, log-out, a page action).
        case form
        /// Icons and theme files made by the server.
        case asset
        /// Files under /static/.
        case staticFile = "static"
        case health
        case metrics
        /// Any other method.
        case other

        /// Read on the target's bytes (every request passes here): no Characters, no copies, and
        /// no more of the path than the literals compared with it. The byte after the first `/`
        /// differs between the literals, so it picks the one literal a target can match.
        init(method: String, target: String) {
            let bytes = target.utf8.span
            let literalClass: RouteClass? =
                switch bytes.count > 1 ? bytes[1] : 0 {
                case UInt8(ascii: "h"): Self.matches(bytes, "/healthz") ? .health : nil
                case UInt8(ascii: "m"): Self.matches(bytes, "/metrics") ? .metrics : nil
                case UInt8(ascii: "s"): Self.matches(bytes, "/static/", prefix: true) ? .staticFile : nil
                case UInt8(ascii: "i"): Self.matches(bytes, "/icons/", prefix: true) ? .asset : nil
                case UInt8(ascii: "t"): Self.matches(bytes, "/theme/", prefix: true) ? .asset : nil
                default: nil
                }
            if let literalClass {
                self = literalClass
            } else if method == "POST" {
                self = .form
            } else if method == "GET" || method == "HEAD" {
                self = .page
            } else {
                self = .other
            }
        }

        /// Whether the target's path (up to `?`) is `literal`, or starts with it. Inlined, so that
        /// each literal's bytes are known where it is compared.
        @inline(__always)
        private static func matches(_ bytes: Span<UInt8>, _ literal: String, prefix: Bool = false) -> Bool {
            let wanted = literal.utf8.span
            guard bytes.count >= wanted.count else { return false }
            for index in wanted.indices where bytes[index] != wanted[index] { return false }
            return prefix || bytes.count == wanted.count || bytes[wanted.count] == UInt8(ascii: "?")
        }
    }

    /// The store calls `/metrics` counts, one counter each.
    public enum StoreOperation: String, CaseIterable, Sendable {
        case modify, move, read
    }

    /// Statuses counted apart; any other is counted as `other`.
    static let statuses = [200, 204, 301, 302, 303, 304, 400, 403, 404, 405, 413, 414, 429, 431, 500, 503]

    private let requests: [[Counter]]
    private let latency: [Histogram]
    private let storeOperations: [Counter]
    private let storeErrors: [Counter]
    private let sources = Mutex(Sources())

    /// Where the levels read at scrape time come from, set once the server and store exist.
    private struct Sources {
        var openConnections: (@Sendable () -> Int)?
        var openStreams: (@Sendable () -> Int)?
        var liveSessions: DeadlineReading?
    }

    public init() {
        requests = RouteClass.allCases.map { _ in (0...Self.statuses.count).map { _ in Counter() } }
        latency = RouteClass.allCases.map { _ in Histogram() }
        storeOperations = StoreOperation.allCases.map { _ in Counter() }
        storeErrors = SessionStoreError.Kind.allCases.map { _ in Counter() }
    }

    /// Reads the server's open connections at each scrape.
    public func readOpenConnections(from source: @escaping @Sendable () -> Int) {
        sources.withLock { $0.openConnections = source }
    }

    /// Reads the server's open streams at each scrape: the server's own book of them is the
    /// count, so no one has to keep a second one in step.
    public func readOpenStreams(from source: @escaping @Sendable () -> Int) {
        sources.withLock { $0.openStreams = source }
    }

    /// How long a scrape waits for the store's count: a store that is slower than this is
    /// reported down (`tabstage_store_up 0`) rather than holding the scrape for its own timeout.
    static let storeReadingDeadline = DispatchTimeInterval.milliseconds(250)

    /// Reads the store's session count at each scrape (stores that count cheaply); nil from
    /// `source` means it cannot be read now.
    public func readLiveSessions(from source: @escaping @Sendable () -> Int?) {
        let reading = DeadlineReading(deadline: Self.storeReadingDeadline, source)
        sources.withLock { $0.liveSessions = reading }
    }

    /// Counts an answered request: the server's access-log hook calls this.
    public func record(_ entry: AccessLogEntry) {
        let routeClass = RouteClass(method: entry.method, target: entry.target)
        let classIndex = RouteClass.allCases.firstIndex(of: routeClass) ?? 0
        let statusIndex = Self.statuses.firstIndex(of: entry.status) ?? Self.statuses.count
        requests[classIndex][statusIndex].increment()
        latency[classIndex].observe(seconds: entry.durationMilliseconds / 1000)
    }

    func recordStore(_ operation: StoreOperation) {
        storeOperations[StoreOperation.allCases.firstIndex(of: operation) ?? 0].increment()
    }

    func recordStoreError(_ error: SessionStoreError) {
        storeErrors[SessionStoreError.Kind.allCases.firstIndex(of: error.kind) ?? 0].increment()
    }

    /// The whole exposition, in the Prometheus text format.
    public func render() -> String {
        var text = PrometheusText()
        text.metric("tabstage_requests_total", type: "counter", help: "Answered requests by route class and status.")
        for (routeClass, counters) in zip(RouteClass.allCases, requests) {
            for (index, counter) in counters.enumerated() where counter.current > 0 {
                let status = index < Self.statuses.count ? String(Self.statuses[index]) : "other"
                text.sample(
                    "tabstage_requests_total", ["route": routeClass.rawValue, "status": status], counter.current)
            }
        }
        text.metric(
            "tabstage_request_duration_seconds", type: "histogram",
            help: "Time from a request's first byte to its response being queued, by route class.")
        for (routeClass, histogram) in zip(RouteClass.allCases, latency) where histogram.count > 0 {
            text.histogram("tabstage_request_duration_seconds", label: ("route", routeClass.rawValue), histogram)
        }
        text.metric(
            "tabstage_store_operations_total", type: "counter", help: "Session store calls by operation.")
        for (operation, counter) in zip(StoreOperation.allCases, storeOperations) {
            text.sample("tabstage_store_operations_total", ["operation": operation.rawValue], counter.current)
        }
        text.metric(
            "tabstage_store_errors_total", type: "counter",
            help: "Session store calls that failed (answered 503), by kind.")
        for (kind, counter) in zip(SessionStoreError.Kind.allCases, storeErrors) {
            text.sample("tabstage_store_errors_total", ["kind": kind.rawValue], counter.current)
        }
        let (connections, streams, sessions) = sources.withLock {
            ($0.openConnections, $0.openStreams, $0.liveSessions)
        }
        text.metric("tabstage_open_connections", type: "gauge", help: "HTTP connections open now.")
        text.sample("tabstage_open_connections", [:], connections?() ?? 0)
        if let sessions {
            // A count that cannot be read is left out, not said to be 0.
            let count = sessions.value()
            text.metric(
                "tabstage_store_up", type: "gauge",
                help: "1 when the session store answered this scrape in time, else 0.")
            text.sample("tabstage_store_up", [:], count == nil ? 0 : 1)
            if let count {
                text.metric(
                    "tabstage_live_sessions", type: "gauge",
                    help: "Sessions the store holds (for Redis: the keys of its database).")
                text.sample("tabstage_live_sessions", [:], count)
            }
        }
        text.metric("tabstage_open_streams", type: "gauge", help: "Live-update streams open now.")
        text.sample("tabstage_open_streams", [:], streams?() ?? 0)
        return text.text
    }
}

extension ServerMetrics {
    /// `store`, its calls and failures counted here.
    public func measuring(_ store: any SessionStore<VisitorSession>) -> any SessionStore<VisitorSession> {
        MeasuredSessionStore(store, metrics: self)
    }
}
