import HTTPServer
import Sessions
import TabModel
import Views

/// Adds a visit's request to the visitor's recording, while "Record a test" is on: what the
/// server answered, in the request list's terms. Never the cookie or the CSRF token.
enum Recorder {
    /// The point of the container's log a visit starts from, to tell which events it caused.
    static func mark(_ page: PageRequest, _ session: VisitorSession) -> Int? {
        guard session.recording?.isOn == true, page.appIndex != nil else { return nil }
        return session.containers[page.app.id]?.log.nextSequence ?? 1
    }

    /// Records `page` with the status of `answer`, when the session is recording.
    static func record(_ page: PageRequest, _ answer: PageAnswer, since mark: Int?, in session: inout VisitorSession) {
        guard session.recording?.isOn == true, !page.isLiveRefresh else { return }
        let request = page.request
        var headers: [RecordedRequest.Field] = []
        var kind = request.method == .post ? "POST" : "GET"
        var form: [RecordedRequest.Field]?
        if request.method == .post {
            let fields = (try? request.form())?.items ?? []
            form = fields.filter { $0.name != CSRFField.name }.map {
                RecordedRequest.Field(name: $0.name, value: $0.value)
            }
        } else {
            switch source(page, since: mark, in: session) {
            case .tap?: kind = "TAP"
            case .moreRow?: headers.append(.init(name: StageResponses.sourceHeader, value: "more"))
            case .history?: headers.append(.init(name: StageResponses.sourceHeader, value: "history"))
            default: break
            }
            if request.headers[StageResponses.fragmentHeader] == "1" {
                if kind == "GET" {
                    kind = "FRAGMENT"
                } else {
                    headers.append(.init(name: StageResponses.fragmentHeader, value: "1"))
                }
            }
        }
        if let language = request.headers["Accept-Language"] {
            headers.insert(.init(name: "Accept-Language", value: language), at: 0)
        }
        session.recording?.append(
            RecordedRequest(
                kind: kind, target: request.target, form: form, headers: headers, status: status(of: answer)))
    }

    /// The entry path the request was taken as: the script's mark, else what the events it
    /// caused say (a click told by Fetch Metadata is a tap there too).
    private static func source(_ page: PageRequest, since mark: Int?, in session: VisitorSession) -> SelectionSource? {
        if page.request.headers[StageResponses.sourceHeader] != nil { return page.selectionSource }
        guard let mark, page.appIndex != nil, let container = session.containers[page.app.id] else { return nil }
        let sources = container.log.events.filter { $0.sequence >= mark }.compactMap { $0.kind.fields.source }
        return sources.first { $0 != .url && $0 != .code }
    }

    static func status(of answer: PageAnswer) -> Int {
        switch answer {
        case .screen(_, let screen): screen.status.rawValue
        case .page(let page): page.status.rawValue
        case .redirect, .moved: 303
        case .refusal(let refusal): refusal.status.rawValue
        case .response(let response): response.status.rawValue
        }
    }
}

extension RecordingStatus {
    init(_ recording: TestRecording?) {
        guard let recording else {
            self = .off
            return
        }
        self = recording.isOn ? .on(requests: recording.requests.count) : .stopped(requests: recording.requests.count)
    }
}
