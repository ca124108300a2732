import TabModel

/// `/{app}/events`: the session's container log as a table, and the same as JSON.
public enum EventLogPage {
    /// `log` is nil when the visitor has no container for this app yet; `category` shows only
    /// events of that kind. Newest first, each with its time of day (UTC) and its full time in
    /// `datetime`.
    public static func document(
        app: AppDescription, log: EventLog?, category: EventCategory? = nil, testDownload: String? = nil,
        chrome: ChromeContext
    ) -> [UInt8] {
        let language = chrome.language
        let heading = UIString.eventLogOf(app.name.text(in: language.tag)).text(in: language)
        return sheet(heading, chrome: chrome) { html in
            html.raw("<p class=\"event-log-actions\"><a")
            html.attribute("href", StageLinks.eventsJSON(app.id))
            html.attribute("type", "application/json")
            html.raw(">")
            html.text(UIString.eventsAsJSON.text(in: language))
            html.raw("</a> <a")
            html.attribute("href", StageLinks.eventsJSON(app.id) + "?download=1")
            html.raw(" download>")
            html.text(UIString.eventsDownload.text(in: language))
            html.raw("</a> ")
            quietButton(StageLinks.resetDemo(app.id), UIString.resetDemo.text(in: language), into: &html)
            if let testDownload {
                // What "Record a test" kept of this session, as a request list.
                html.raw(" <a data-record-download")
                html.attribute("href", testDownload)
                html.raw(">")
                html.text(RecordWording.sessionAsTest.text(in: language))
                html.raw("</a>")
            }
            html.raw("</p>\n")
            filter(app: app, current: category, language: language, into: &html)
            let events = (log?.events ?? []).filter { category == nil || $0.kind.category == category }
            guard !events.isEmpty else {
                let empty = log?.events.isEmpty ?? true ? UIString.eventLogEmpty : .eventLogEmptyCategory
                PageParts.paragraph(empty.text(in: language), into: &html)
                return
            }
            if let log, log.droppedCount > 0 {
                PageParts.paragraph(
                    UIString.eventLogDropped(log.droppedCount).text(in: language), className: "meta", into: &html)
            }
            table(events.reversed(), app: app, language: language, into: &html)
        }
    }

    /// A sheet page: its heading, then `body`.
    private static func sheet(_ heading: String, chrome: ChromeContext, body: (inout HTMLWriter) -> Void) -> [UInt8] {
        Chrome.document(title: Chrome.title([heading], language: chrome.language), chrome: chrome) { html in
            html.raw("<main class=\"sheet\">\n<h1>")
            html.text(heading)
            html.raw("</h1>\n")
            body(&html)
            html.raw("</main>\n")
        }
    }

    /// A link drawn as a quiet button.
    private static func quietButton(_ href: String, _ label: String, into html: inout HTMLWriter) {
        html.raw("<a class=\"button button-quiet\"")
        html.attribute("href", href)
        html.raw(">")
        html.text(label)
        html.raw("</a>")
    }

    /// The links that show every event or one kind, the current one marked.
    private static func filter(
        app: AppDescription, current: EventCategory?, language: PageLanguage, into html: inout HTMLWriter
    ) {
        html.raw("<nav class=\"event-filter\"")
        html.attribute("aria-label", UIString.eventFilterNavigation.text(in: language))
        html.raw("><ul>\n")
        for category in [nil] + EventCategory.allCases.map(Optional.some) {
            html.raw("<li><a")
            html.attribute("href", StageLinks.events(app.id, category: category))
            if category == current { html.raw(" aria-current=\"page\"") }
            html.raw(">")
            html.text(UIString.eventCategory(category).text(in: language))
            html.raw("</a></li>\n")
        }
        html.raw("</ul></nav>\n")
    }

    /// Times are UTC, and the heading says so; each event that concerns a tab names it by its
    /// title (the sentence keeps the id, as the JSON and a device log do).
    private static func table(
        _ events: ReversedCollection<[ContainerEvent]>, app: AppDescription, language: PageLanguage,
        into html: inout HTMLWriter
    ) {
        html.raw("<table class=\"event-table\">\n<caption>")
        html.text(UIString.eventLogNewestFirst.text(in: language))
        html.raw("</caption>\n<thead><tr>")
        for column in [UIString.eventSequence, .eventTime, .eventLayout, .eventTab, .eventDescription] {
            html.raw("<th scope=\"col\">")
            html.text(column.text(in: language))
            html.raw("</th>")
        }
        html.raw("</tr></thead>\n<tbody>\n")
        for event in events {
            html.raw("<tr><td>")
            html.number(event.sequence)
            html.raw("</td><td><time")
            html.attribute("datetime", EventTimeFormat.string(event.time))
            html.raw(">")
            html.text(EventTimeFormat.timeOfDay(event.time))
            html.raw("</time></td><td>")
            if let layout = event.layout { html.text(layout.rawValue) }
            html.raw("</td><td>")
            if let tabID = event.kind.fields.tabID, let tab = app.tabs.first(where: { $0.id == tabID }) {
                html.text(tab.title.text(in: language.tag))
            }
            html.raw("</td><td>")
            PageParts.englishText(event.kind.description, pageLanguage: language, into: &html)
            html.raw("</td></tr>\n")
        }
        html.raw("</tbody>\n</table>\n")
    }

    /// `/{app}/reset`: what resetting the demo does, a button that posts it, and a way back.
    public static func resetConfirmation(app: AppDescription, chrome: ChromeContext) -> [UInt8] {
        let language = chrome.language
        let heading = UIString.resetDemoQuestion.text(in: language)
        return sheet(heading, chrome: chrome) { html in
            PageParts.paragraph(
                UIString.resetDemoExplanation(app.name.text(in: language.tag)).text(in: language), into: &html)
            html.raw("<form method=\"post\" class=\"reset-demo\"")
            html.attribute("action", StageLinks.resetDemo(app.id))
            html.raw(">")
            CSRFField.render(chrome.csrfToken, into: &html)
            html.raw("<button type=\"submit\" class=\"button\">")
            html.text(UIString.resetDemoButton.text(in: language))
            html.raw("</button> ")
            quietButton(StageLinks.events(app.id), UIString.cancel.text(in: language), into: &html)
            html.raw("</form>\n")
        }
    }

    /// `{"app": …, "dropped": N, "events": [{"sequence", "time", "layout", "event", "kind", …}]}`,
    /// one event a line; `layout` is null for an event no request caused. After the sentence come
    /// the kind's fields: `kind`, then `tab`, `source` and `allowed` only where the kind has them.
    public static func json(app: AppDescription, log: EventLog?) -> [UInt8] {
        var output = "{\n  \"app\": " + jsonString(app.id) + ",\n  \"dropped\": \(log?.droppedCount ?? 0),\n"
        let events = log?.events ?? []
        output += "  \"events\": [" + (events.isEmpty ? "" : "\n")
        for (index, event) in events.enumerated() {
            output +=
                "    {\"sequence\": \(event.sequence), \"time\": " + jsonString(EventTimeFormat.string(event.time))
            output += ", \"layout\": " + (event.layout.map { jsonString($0.rawValue) } ?? "null")
            output += ", \"event\": " + jsonString(event.kind.description) + fieldsJSON(event.kind.fields) + "}"
            output += index == events.count - 1 ? "\n  " : ",\n"
        }
        output += "]\n}\n"
        return Array(output.utf8)
    }

    /// `, "kind": …` and the fields the kind has; a source by its log name, as in the sentence.
    private static func fieldsJSON(_ fields: ContainerEventFields) -> String {
        var output = ", \"kind\": " + jsonString(fields.kind)
        if let tabID = fields.tabID { output += ", \"tab\": " + jsonString(tabID) }
        if let source = fields.source { output += ", \"source\": " + jsonString(source.logName) }
        if let allowed = fields.allowed { output += ", \"allowed\": \(allowed)" }
        return output
    }

    static func jsonString(_ value: String) -> String {
        var output = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            // `<` too, so the JSON can never close a script element it is pasted into.
            case "<": output += "\\u003c"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
