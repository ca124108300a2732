import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// The container's event log, as a page and as JSON, and the reset of an app's demo.
struct EventLogController: Sendable {
    let pages: PageRoutes

    func addRoutes(to router: inout Router) {
        router.get("/{app}/events", pages.page(.app, find: Self.namedCategory, eventLog))
        router.get("/{app}/events.json", pages.page(.app, eventLogJSON))
        router.get("/{app}/reset", pages.page(.app, visiting: .init(creates: .always), resetConfirmation))
        router.post("/{app}/reset", pages.form(.app, resetDemo))
    }

    /// `?kind=`: the one kind of event the page lists, or all of them.
    static func namedCategory(_ page: PageRequest) -> Result<EventCategory?, Refusal> {
        guard let kind = page.query["kind"] else { return .success(nil) }
        guard let named = EventCategory(rawValue: kind) else { return .failure(Refusal(.badRequest)) }
        return .success(named)
    }

    /// The visitor's log of the app, when they have a container of it.
    private func log(_ visit: PageVisit, _ session: inout VisitorSession) -> EventLog? {
        guard session.containers[visit.app.id] != nil else { return nil }
        return TabSelection.withCurrentContainer(&session, of: visit.app, at: visit.now) { $0.log }
    }

    /// `GET /{app}/events[?kind=…]`: the log newest first, filtered by kind.
    func eventLog(_ visit: PageVisit, _ category: EventCategory?, _ session: inout VisitorSession) -> PageAnswer {
        let (app, log) = (visit.app, log(visit, &session))
        let test = session.recording.map { _ in RecordPanelView.download(app.id) }
        return .page(
            Page { EventLogPage.document(app: app, log: log, category: category, testDownload: test, chrome: $0) })
    }

    /// `GET /{app}/events.json`: the log in order, for comparing with a device's; with
    /// `?download=1` it is a file to save, `{app}-events.json`.
    func eventLogJSON(_ visit: PageVisit, _: Void, _ session: inout VisitorSession) -> PageAnswer {
        var response = Response.json(EventLogPage.json(app: visit.app, log: log(visit, &session)))
        StageResponses.secure(&response)
        response.headers["Cache-Control"] = "no-store"
        if visit.page.query["download"] == "1" {
            // An app id is lowercase letters, digits and hyphens: nothing to quote.
            response.headers["Content-Disposition"] = "attachment; filename=\"\(visit.app.id)-events.json\""
        }
        return .response(response)
    }

    /// `GET /{app}/reset`: the confirmation step before the demo of this app is reset. It makes
    /// a session, so that the form carries its CSRF token.
    func resetConfirmation(_ visit: PageVisit, _: Void, _ session: inout VisitorSession) -> PageAnswer {
        let app = visit.app
        return .page(Page { EventLogPage.resetConfirmation(app: app, chrome: $0) })
    }

    /// `POST /{app}/reset`: the visitor's container of this app is dropped with its page states,
    /// stacks, badges and log; the next page of the app starts it afresh. The visitor's log-in,
    /// language, appearance and other apps stay.
    func resetDemo(_ visit: PageVisit, _: QueryItems, _ session: inout VisitorSession) -> PageAnswer {
        session.containers[visit.app.id] = nil
        return .redirect(StageLinks.events(visit.app.id))
    }
}
