import Foundation
import HTTPServer
import Sessions
import TabModel
import TabStageApp
import Views

/// Sends a request list's requests, in order, to one deterministic application in process, as
/// one browser would: carrying its session cookie, and adding the CSRF token of the last page
/// to every form it posts (unless the list gives one).
///
/// Beside each response it reads what the prototype did from the session store itself (the
/// container's bar, the page's state, the events this request caused), so a snapshot says it in
/// the model's words before the markup.
struct SnapshotReplay {
    let application: StageApplication
    private let router: Router
    private var cookie: String?
    private var csrfToken: String?

    init(apps: [AppDescription]) {
        application = StageApplication.deterministic(apps: apps)
        var router = Router()
        application.addRoutes(to: &router)
        self.router = router
    }

    /// A response as received, and the prototype's state after it.
    struct Replayed {
        var status: Int
        var statusLine: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        /// The `== prototype` section's lines; empty when the request was about no app.
        var prototype: [String]

        var isPNG: Bool {
            headers.contains { $0.name.lowercased() == "content-type" && $0.value.lowercased().hasPrefix("image/png") }
        }
    }

    mutating func send(_ replayed: ReplayRequest) -> Replayed {
        var headers = HTTPHeaders()
        headers["Host"] = "localhost"
        if let cookie { headers["Cookie"] = cookie }
        for header in replayed.headers { headers[header.name] = header.value }
        var body: [UInt8] = []
        if var form = replayed.form {
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            // A browser submits the token of the page its form came from.
            if let csrfToken, !form.contains(where: { $0.name == CSRFField.name }) {
                form.append(ReplayRequest.FormField(name: CSRFField.name, encodedValue: csrfToken))
            }
            body = Array(form.map { $0.name + "=" + $0.encodedValue }.joined(separator: "&").utf8)
        }
        let request: Request
        do {
            request = try Request(method: replayed.kind.method, target: replayed.target, headers: headers, body: body)
        } catch {
            // The list's parser has checked every target already.
            let response = Response.statusPage(.badRequest, message: error.description)
            return Replayed(response, prototype: [])
        }
        let before = application.session(of: request)
        let response = router.respond(to: request)
        if let setCookie = response.headers["Set-Cookie"], let pair = setCookie.split(separator: ";").first {
            cookie = String(pair)
        }
        if let token = FormToken.csrfToken(in: response.body) { csrfToken = token }
        var next = request
        if let cookie { next.headers["Cookie"] = cookie }
        let after = application.session(of: next)
        let summary = PrototypeSummary(
            application: application, request: request, status: response.status.rawValue, before: before,
            after: after)
        return Replayed(response, prototype: summary?.lines ?? [])
    }

}

extension SnapshotReplay.Replayed {
    /// The response as the server would send it: with the header it adds to every response.
    init(_ response: Response, prototype: [String]) {
        var headers = response.headers
        headers.addNoSniff()
        self.init(
            status: response.status.rawValue,
            statusLine: "HTTP/1.1 \(response.status.rawValue) \(response.status.reasonPhrase)",
            headers: headers.fields.map { (name: $0.name, value: $0.value) }, body: response.body,
            prototype: prototype)
    }
}
