import HTTPServer

/// The app's routes. Static files live under `/static/` so they can never shadow an app route
/// and one prefix can be given long cache lifetimes; the stage's routes come after them, ending
/// in a catch-all that answers 404 in the app's look.
public enum Routes {
    public static func makeRouter(staticFiles: StaticFiles, application: StageApplication) -> Router {
        var router = Router()
        router.get("/healthz") { _, _ in .text("ok") }
        router.staticFiles(staticFiles, at: "/static")
        application.addRoutes(to: &router)
        return router
    }
}
