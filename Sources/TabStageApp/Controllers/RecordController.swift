import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// "Record a test" (docs/snapshots.md): the visitor's own requests, from the start to "Stop",
/// kept in their session (`TestRecording`) and downloaded as a request list.
struct RecordController: Sendable {
    let pages: PageRoutes

    func addRoutes(to router: inout Router) {
        router.post("/{app}/record", pages.form(.app, isRecorded: false, start))
        router.post("/{app}/record/stop", pages.form(.app, isRecorded: false, stop))
        router.get(
            "/{app}/record.txt", pages.page(.app, visiting: .init(readsFirst: true, isRecorded: false), download))
    }

    /// Back to the page the form was on (a local path), else the app's first page.
    private static func next(_ form: QueryItems, app: AppDescription) -> String {
        LocalPath.validated(form["next"]) ?? "/\(app.id)"
    }

    /// `POST /{app}/record`: a new recording replaces the last one; the next page is its first
    /// request.
    func start(_ visit: PageVisit, _ form: QueryItems, _ session: inout VisitorSession) -> PageAnswer {
        session.recording = TestRecording(
            appID: visit.app.id, startedAt: visit.now.timeIntervalSince1970, startedLoggedInAs: session.visitorName)
        return .redirect(Self.next(form, app: visit.app))
    }

    /// `POST /{app}/record/stop`: the recording is kept for its download.
    func stop(_ visit: PageVisit, _ form: QueryItems, _ session: inout VisitorSession) -> PageAnswer {
        session.recording?.isOn = false
        return .redirect(Self.next(form, app: visit.app))
    }

    /// `GET /{app}/record.txt`: the recording so far, as a request list to save beside the app.
    func download(_ visit: PageVisit, _: Void, _ session: inout VisitorSession) -> PageAnswer {
        guard let recording = session.recording else { return .refusal(.notFound(.unknownPage)) }
        let app = visit.app
        let date = Date(timeIntervalSince1970: recording.startedAt).formatted(
            .iso8601.year().month().day().dateSeparator(.dash))
        let name = app.id == recording.appID ? app.name.text(in: "en") : recording.appID
        var response = Response.text(RecordedList.text(of: recording, appName: name, date: date))
        StageResponses.secure(&response)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Content-Disposition"] =
            "attachment; filename=\"\(RecordedList.fileName(appID: recording.appID))\""
        return .response(response)
    }
}
