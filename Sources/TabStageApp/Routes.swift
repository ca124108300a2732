import HTTPServer
import Metrics

/// The app's routes. Static files live under `/static/` so they can never shadow an app route
/// and one prefix can be given long cache lifetimes; the stage's routes come after them, ending
/// in a catch-all that answers 404 in the app's look.
public enum Routes {
    /// `/healthz` answers 503 while the session store cannot serve (Redis down), so a load
    /// balancer sends no visitor there; `/metrics` is answered only to `metrics.allowed`
    /// addresses. Neither touches sessions or CSRF tokens.
    public static func makeRouter(
        staticFiles: StaticFiles, application: StageApplication, metrics: MetricsAccess? = nil
    ) -> Router {
        var router = Router()
        router.get("/healthz") { [store = application.store] _, _ in
            do {
                try store.checkHealth()
                return .text("ok")
            } catch {
                return .statusPage(.serviceUnavailable, message: "the session store is down")
            }
        }
        if let metrics {
            router.get("/metrics") { request, _ in metrics.respond(to: request) }
        }
        router.staticFiles(staticFiles, at: "/static")
        application.addRoutes(to: &router)
        return router
    }
}

/// Who may read `/metrics` (`serve --metrics-from`, loopback by default), and what they read.
public struct MetricsAccess: Sendable {
    public let metrics: ServerMetrics
    public let allowed: [AddressRange]

    public init(metrics: ServerMetrics, allowed: [AddressRange] = AddressRange.loopback) {
        self.metrics = metrics
        self.allowed = allowed
    }

    func respond(to request: Request) -> Response {
        guard allowed.containsAddress(request.remoteAddress) else {
            return .statusPage(.forbidden, message: "metrics are served to --metrics-from addresses only")
        }
        var response = Response(body: Array(metrics.render().utf8))
        response.headers["Content-Type"] = PrometheusText.contentType
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
