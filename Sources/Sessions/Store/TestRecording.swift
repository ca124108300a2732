/// What "Record a test" keeps of a visitor's own requests until "Stop" (docs/snapshots.md):
/// each request as the server answered it, bounded to the last ``limit``, so that it fits in
/// every store. It holds no cookie and no CSRF token: a replay carries its own.
public struct TestRecording: Sendable, Equatable, Codable {
    /// The most requests one recording keeps; older ones are dropped (and counted).
    public static let limit = 200

    /// The app whose page the recording was started on: the list's header names it.
    public var appID: String
    /// False after "Stop": the recording is kept for its download until the next one starts.
    public var isOn: Bool
    /// When it started, in seconds since 1970 (the server's clock, passed in).
    public var startedAt: Double
    /// The visitor's name when it started, so that the list logs in first; nil when logged out.
    public var startedLoggedInAs: String?
    public private(set) var requests: [RecordedRequest]
    /// How many of the oldest requests were dropped for ``limit``.
    public private(set) var droppedCount: Int

    public init(appID: String, startedAt: Double, startedLoggedInAs: String?) {
        self.appID = appID
        isOn = true
        self.startedAt = startedAt
        self.startedLoggedInAs = startedLoggedInAs
        requests = []
        droppedCount = 0
    }

    public mutating func append(_ request: RecordedRequest) {
        requests.append(request)
        if requests.count > Self.limit {
            requests.removeFirst(requests.count - Self.limit)
            droppedCount += 1
        }
    }
}

/// One request of a recording, in the request list's terms.
public struct RecordedRequest: Sendable, Equatable, Codable {
    /// `GET`, `TAP`, `POST` or `FRAGMENT`, as a request list writes it.
    public var kind: String
    /// The path and query, as sent.
    public var target: String
    /// A POST's fields as decoded (the CSRF token left out); nil for every other kind.
    public var form: [Field]?
    /// Headers the replay must send too (`Accept-Language`, a source the kind does not say).
    public var headers: [Field]
    /// The status the server answered.
    public var status: Int

    public struct Field: Sendable, Equatable, Codable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(kind: String, target: String, form: [Field]? = nil, headers: [Field] = [], status: Int) {
        self.kind = kind
        self.target = target
        self.form = form
        self.headers = headers
        self.status = status
    }
}
