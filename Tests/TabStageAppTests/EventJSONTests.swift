import Foundation
import Testing

@testable import Snapshots
@testable import TabStageApp
@testable import TabStageCLI

/// Issue 19 item 14: `events.json` gives each event's kind, tab, source, answer and layout
/// beside its sentence.
@Suite struct EventJSONTests {
    /// Issue 28: `?download=1` makes the same JSON a file to save; without it, nothing to save.
    @Test func theLogDownloadsAsAFileNamedForItsApp() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/vertical/vertical/inbox")
        let shown = try visitor.get("/vertical/events.json")
        let saved = try visitor.get("/vertical/events.json?download=1")
        #expect(shown.header("Content-Disposition") == nil)
        #expect(saved.header("Content-Disposition") == "attachment; filename=\"vertical-events.json\"")
        #expect(saved.text == shown.text)
    }

    @Test func aTapIsLoggedWithStructuredFieldsBesideItsSentence() throws {
        let visitor = try StageServer().visitor()
        _ = try visitor.get("/vertical/vertical/inbox")
        _ = try visitor.get("/vertical/vertical/discover", headers: [("X-TabStage-Source", "tap")])
        let data = Data(try visitor.get("/vertical/events.json").text.utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["events"] as? [[String: Any]])
        let asked = try #require(events.last { $0["kind"] as? String == "shouldSelect" })
        #expect(asked["tab"] as? String == "discover")
        #expect(asked["source"] as? String == "tap")
        #expect(asked["allowed"] as? Bool == true)
        #expect(asked["layout"] as? String == "vertical")
        #expect(asked["event"] as? String == "shouldSelect discover (tap) → yes", "the sentence stays")
        let selected = try #require(events.last { $0["kind"] as? String == "didSelect" })
        #expect(selected["tab"] as? String == "discover")
        #expect(selected["source"] as? String == "tap")
        #expect(selected["allowed"] == nil, "only the guard and shouldSelect answer")
        let appeared = try #require(events.last { $0["kind"] as? String == "viewDidAppear" })
        #expect(appeared["tab"] as? String == "discover")
        #expect(appeared["source"] == nil, "a lifecycle step has no source")
        // The first visit by URL went through the login guard, with its own source.
        let first = try #require(events.first)
        #expect(first["kind"] as? String == "guardChecked")
        #expect(first["tab"] as? String == "inbox")
        #expect(first["source"] as? String == "url")
        #expect(first["allowed"] as? Bool == true)
    }
}
