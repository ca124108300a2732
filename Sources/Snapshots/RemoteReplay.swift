import Foundation
import HTTPServer
import HTTPTesting
import Views

/// Sends a request list to a running TabStage (`tabstage snapshot test --url`), as one browser:
/// its cookie carried from response to response, the CSRF token of the last page added to every
/// form. Redirects are not followed, as in process.
///
/// The prototype section comes from the server, not the model: the events the request caused,
/// read from `/{app}/events.json` after it. What a live server does not repeat from run to run
/// (session ids, tokens, times, follow codes, live versions, its own address) is redacted, and
/// the section says so.
struct RemoteReplay {
    let address: HTTPURL
    private var cookie: String?
    private var csrfToken: String?
    /// The last event each app's log was read up to.
    private var seenEvents: [String: Int] = [:]

    init(address: HTTPURL) {
        self.address = address
    }

    /// The line at the head of a remote snapshot's prototype section.
    static let redactionNote =
        "from the server (events.json); redacted: session ids, tokens, times, follow codes, live versions, its address"

    /// What a live server changes from run to run, beyond what ``Redactor`` always replaces.
    static func patterns(for address: HTTPURL) -> [Redactor.Pattern] {
        let sources = [
            "/follow/([A-Za-z0-9_-]+)", "data-version=\"([0-9]+-[0-9]+)\"", ">([0-9]{2}:[0-9]{2}:[0-9]{2})<",
            NSRegularExpression.escapedPattern(for: address.authority),
        ]
        return sources.compactMap { source in
            (try? Regex(source)).map { Redactor.Pattern(source: source, regex: $0) }
        }
    }

    mutating func send(_ replayed: ReplayRequest) throws(TestClientError) -> SnapshotReplay.Replayed {
        var body: [UInt8] = []
        var headers: [(String, String)] = []
        if let cookie { headers.append(("Cookie", cookie)) }
        headers += replayed.headers.map { ($0.name, $0.value) }
        if var form = replayed.form {
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
            if let csrfToken, !form.contains(where: { $0.name == CSRFField.name }) {
                form.append(ReplayRequest.FormField(name: CSRFField.name, encodedValue: csrfToken))
            }
            body = Array(form.map { $0.name + "=" + $0.encodedValue }.joined(separator: "&").utf8)
        }
        let response = try exchange(replayed.kind.method.rawValue, replayed.target, headers, body)
        if let setCookie = response.header("Set-Cookie"), let pair = setCookie.split(separator: ";").first {
            cookie = String(pair)
        }
        if let token = FormToken.csrfToken(in: response.body) { csrfToken = token }
        return SnapshotReplay.Replayed(
            status: response.status, statusLine: "HTTP/1.1 \(response.status) \(response.reasonPhrase)",
            headers: response.headers.fields.map { (name: $0.name, value: $0.value) }, body: response.body,
            prototype: try prototype(of: replayed.target))
    }

    /// The note, the app, and the events since the last read of its log; empty for a request
    /// about no app (nothing answers its `events.json`).
    private mutating func prototype(of target: String) throws(TestClientError) -> [String] {
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        guard let appID = path.split(separator: "/").first.map(String.init),
            !["icons", "screens", "static", "theme", "login", "logout"].contains(appID)
        else { return [] }
        var headers: [(String, String)] = []
        if let cookie { headers.append(("Cookie", cookie)) }
        let response = try exchange("GET", "/\(appID)/events.json", headers, [])
        guard response.status == 200, let log = try? JSONDecoder().decode(EventsJSON.self, from: Data(response.body))
        else { return [] }
        var since = seenEvents[appID] ?? 0
        // A reset log starts counting again.
        if let last = log.events.last?.sequence, last < since { since = 0 }
        let events = log.events.filter { $0.sequence > since }
        seenEvents[appID] = log.events.last?.sequence ?? 0
        var lines = [Self.redactionNote, "app: \(appID)"]
        lines.append(events.isEmpty ? "events: none" : "events:")
        lines += events.map { "  #\($0.sequence) \($0.event)" }
        return lines
    }

    private struct EventsJSON: Decodable {
        struct Event: Decodable {
            var sequence: Int
            var event: String
        }
        var events: [Event]
    }

    private func exchange(_ method: String, _ target: String, _ headers: [(String, String)], _ body: [UInt8])
        throws(TestClientError) -> TestResponse
    {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(address.authority)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        let client = HTTPTestClient(port: address.port, host: address.host)
        return try client.send(raw: Array((head + "\r\n").utf8) + body)
    }
}
