import TabModel

/// `/{app}/events`: the session's container log as a table, and the same as JSON.
public enum EventLogPage {
    /// `log` is nil when the visitor has no container for this app yet.
    public static func document(app: AppDescription, log: EventLog?, chrome: ChromeContext) -> [UInt8] {
        let language = chrome.language
        let heading = UIString.eventLogOf(app.name.text(in: language.tag)).text(in: language)
        return Chrome.document(title: Chrome.title([heading], language: language), chrome: chrome) { html in
            html.raw("<main class=\"sheet\">\n<h1>")
            html.text(heading)
            html.raw("</h1>\n<p><a")
            html.attribute("href", StageLinks.eventsJSON(app.id))
            html.attribute("type", "application/json")
            html.raw(">")
            html.text(UIString.eventsAsJSON.text(in: language))
            html.raw("</a></p>\n")
            guard let log, !log.events.isEmpty else {
                PageParts.paragraph(UIString.eventLogEmpty.text(in: language), into: &html)
                html.raw("</main>\n")
                return
            }
            if log.droppedCount > 0 {
                PageParts.paragraph(
                    UIString.eventLogDropped(log.droppedCount).text(in: language), className: "meta", into: &html)
            }
            html.raw("<table>\n<thead><tr>")
            for column in [UIString.eventSequence, .eventTime, .eventLayout, .eventDescription] {
                html.raw("<th scope=\"col\">")
                html.text(column.text(in: language))
                html.raw("</th>")
            }
            html.raw("</tr></thead>\n<tbody>\n")
            for event in log.events {
                html.raw("<tr><td>")
                html.number(event.sequence)
                html.raw("</td><td><time>")
                html.text(EventTimeFormat.string(event.time))
                html.raw("</time></td><td>")
                if let layout = event.layout { html.text(layout.rawValue) }
                html.raw("</td><td>")
                html.text(event.kind.description)
                html.raw("</td></tr>\n")
            }
            html.raw("</tbody>\n</table>\n</main>\n")
        }
    }

    /// `{"app": …, "dropped": N, "events": [{"sequence", "time", "layout", "event"}]}`, one event a
    /// line; `layout` is null for an event no request caused.
    public static func json(app: AppDescription, log: EventLog?) -> [UInt8] {
        var output = "{\n  \"app\": " + jsonString(app.id) + ",\n  \"dropped\": \(log?.droppedCount ?? 0),\n"
        let events = log?.events ?? []
        output += "  \"events\": [" + (events.isEmpty ? "" : "\n")
        for (index, event) in events.enumerated() {
            output +=
                "    {\"sequence\": \(event.sequence), \"time\": " + jsonString(EventTimeFormat.string(event.time))
            output += ", \"layout\": " + (event.layout.map { jsonString($0.rawValue) } ?? "null")
            output += ", \"event\": " + jsonString(event.kind.description) + "}"
            output += index == events.count - 1 ? "\n  " : ",\n"
        }
        output += "]\n}\n"
        return Array(output.utf8)
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
