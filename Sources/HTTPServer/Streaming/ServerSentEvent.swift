/// One message of a `text/event-stream` (the HTML standard's Server-Sent Events), as bytes.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field; nil is the default `message` event.
    public var name: String?
    /// The `id:` field: the browser sends the last one back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// One `data:` field per line.
    public var data: String

    public init(name: String? = nil, id: String? = nil, data: String = "") {
        self.name = name
        self.id = id
        self.data = data
    }

    /// The fields, each on its own line, ended by a blank line. CR and LF inside the name or id
    /// would start a field of their own, so they are dropped; inside the data they split lines.
    public var bytes: [UInt8] {
        var text = ""
        if let name { text += "event: " + Self.oneLine(name) + "\n" }
        if let id { text += "id: " + Self.oneLine(id) + "\n" }
        for line in data.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            text += "data: " + line + "\n"
        }
        text += "\n"
        return Array(text.utf8)
    }

    private static func oneLine(_ text: String) -> String { String(text.filter { !$0.isNewline }) }

    /// `retry: MILLISECONDS`: how long the browser waits before reconnecting a dropped stream.
    public static func retry(milliseconds: Int) -> [UInt8] { Array("retry: \(milliseconds)\n\n".utf8) }

    /// A comment line, which the browser ignores: a heartbeat that keeps proxies from closing
    /// an idle stream.
    public static let heartbeat: [UInt8] = Array(": heartbeat\n\n".utf8)

    /// The headers of an event stream: never cached, never buffered by a proxy (nginx reads
    /// `X-Accel-Buffering`), never transformed.
    public static var streamHeaders: HTTPHeaders {
        [
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store, no-transform",
            "X-Accel-Buffering": "no",
        ]
    }
}
