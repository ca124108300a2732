/// Whether the visitor records a test: off, on with the requests kept so far, or stopped with
/// a recording ready to download.
public enum RecordingStatus: Sendable, Equatable {
    case off
    case on(requests: Int)
    case stopped(requests: Int)
}

/// "Record a test" and "Stop" beside the offer to present, and the recording's download
/// (docs/snapshots.md): forms with the CSRF token, so they work without the script.
public enum RecordPanelView {
    /// `POST` starts a recording; `/stop` ends it; `.txt` downloads it as a request list.
    public static func start(_ appID: String) -> String { "/\(appID)/record" }
    public static func stop(_ appID: String) -> String { "/\(appID)/record/stop" }
    public static func download(_ appID: String) -> String { "/\(appID)/record.txt" }

    /// The panel's row: the lead, the button, and the download once stopped. `returnPath` is
    /// where the button's form comes back to. With `markup` (of `appID`), a row with nothing
    /// recorded copies what does not vary from it.
    static func render(
        _ live: LiveStage, appID: String, returnPath: String, language: PageLanguage, csrfToken: String?,
        markup: AppMarkup? = nil, into html: inout HTMLWriter
    ) {
        guard !live.isFollowing else { return }
        // The markup's version in `language`, looked up once for both parts.
        let place = live.recording == .off ? markup?.place(of: language) : nil
        if let markup, let place {
            html.prewritten(markup.recordOpening(language: place), of: markup)
        } else {
            opening(live.recording, appID: appID, language: language, into: &html)
        }
        html.attribute("value", returnPath)
        html.raw(">")
        CSRFField.render(csrfToken, into: &html)
        if let markup, let place {
            html.prewritten(markup.recordClosing(language: place), of: markup)
        } else {
            closing(live.recording, appID: appID, language: language, into: &html)
        }
    }

    /// The row up to its form's `next` field, whose value comes next.
    static func opening(
        _ recording: RecordingStatus, appID: String, language: PageLanguage, into html: inout HTMLWriter
    ) {
        html.raw("<div class=\"live-panel record-panel\" data-recording=\"")
        switch recording {
        case .off: html.raw("off")
        case .on: html.raw("on")
        case .stopped: html.raw("stopped")
        }
        html.raw("\"><p>")
        switch recording {
        case .off, .stopped: html.text(RecordWording.lead.text(in: language))
        case .on(let count): html.text(RecordWording.recording(count).text(in: language))
        }
        html.raw("</p><form method=\"post\"")
        html.attribute("action", recording.isOn ? stop(appID) : start(appID))
        html.raw("><input type=\"hidden\" name=\"next\"")
    }

    /// The row from the button, after the form's CSRF field, to its end.
    static func closing(
        _ recording: RecordingStatus, appID: String, language: PageLanguage, into html: inout HTMLWriter
    ) {
        html.raw("<button type=\"submit\" class=\"button button-quiet\" data-record>")
        html.text((recording.isOn ? RecordWording.stop : RecordWording.record).text(in: language))
        html.raw("</button></form>")
        if case .stopped(let count) = recording, count > 0 {
            html.raw(" <a data-record-download")
            html.attribute("href", download(appID))
            html.attribute("download", appID + "-test.txt")
            html.raw(">")
            html.text(RecordWording.download(count).text(in: language))
            html.raw("</a>")
        }
        html.raw("</div>\n")
    }
}

extension RecordingStatus {
    var isOn: Bool { if case .on = self { true } else { false } }
}

/// The recording's words, English and Traditional Chinese.
public enum RecordWording: Sendable {
    case lead
    case record
    case recording(Int)
    case stop
    case download(Int)
    case sessionAsTest

    public func text(in language: PageLanguage) -> String {
        let (english, chinese) = wording
        return language.labels == .english ? english : chinese
    }

    private var wording: (String, String) {
        switch self {
        case .lead: ("Turn what you do next into a snapshot test.", "把接下來的操作變成快照測試。")
        case .record: ("Record a test", "錄製測試")
        case .recording(let count):
            ("Recording a test: \(count == 1 ? "1 request" : "\(count) requests") so far.", "錄製測試中：目前 \(count) 個請求。")
        case .stop: ("Stop", "停止")
        case .download(let count):
            ("Download the test (\(count == 1 ? "1 request" : "\(count) requests"))", "下載測試（\(count) 個請求）")
        case .sessionAsTest: ("Download this session as a test", "將這個工作階段下載為測試")
        }
    }
}
