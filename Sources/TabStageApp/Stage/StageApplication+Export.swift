import HTTPServer
import Views

extension StageApplication {
    /// `GET /{app}/export.swift`: the SwiftUI source of the app's tab view, as plain text.
    func swiftExport(_ request: Request, _ parameters: Parameters) throws -> Response {
        let appID = try parameters.require("app")
        guard let app = app(id: appID) else { return try errorPage(request, .notFound, .unknownApp(appID)) }
        var response = Response.text(SwiftUIExport.source(of: app))
        StageResponses.secure(&response)
        return response
    }
}
