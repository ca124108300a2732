import HTTPServer

/// The app's routes. Static files live under `/static/` so they can never shadow an app route
/// and one prefix can be given long cache lifetimes.
public enum Routes {
    public static func makeRouter(staticFiles: StaticFiles) -> Router {
        var router = Router()
        router.get("/") { _, _ in .html(placeholderPage) }
        router.get("/healthz") { _, _ in .text("ok") }
        router.staticFiles(staticFiles, at: "/static")
        return router
    }

    static let placeholderPage = """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><title>TabStage</title>
        <link rel="stylesheet" href="/static/css/tabstage.css"></head>
        <body><h1>TabStage</h1><p>The demo apps are coming soon.</p></body>
        </html>

        """
}
