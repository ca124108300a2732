import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

extension StageApplication {
    /// Adds every page route. Fixed paths come first: an app whose id is `login`, `logout`,
    /// `theme`, `icons` or `static` would be shadowed by them.
    public func addRoutes(to router: inout Router) {
        router.get("/", guarded { [self] request, _ in try home(request) })
        router.get("/login", guarded { [self] request, _ in try loginForm(request) })
        router.post("/login", guarded { [self] request, _ in try logIn(request) })
        router.post("/logout", guarded { [self] request, _ in try logOut(request) })
        router.get("/icons", guarded { [self] request, _ in try iconGallery(request) })
        router.get("/theme/{file}", guarded { [self] request, parameters in try theme(request, parameters) })
        router.get(
            "/icons/apps/{app}/{tab}/{file}",
            guarded { [self] request, parameters in
                try appIcon(request, parameters)
            })
        router.get(
            "/icons/{name}/{file}", guarded { [self] request, parameters in try builtInIcon(request, parameters) })
        router.get(
            "/{app}/events", guarded { [self] request, parameters in try eventLog(request, parameters, json: false) })
        router.get(
            "/{app}/events.json",
            guarded { [self] request, parameters in
                try eventLog(request, parameters, json: true)
            })
        router.get("/{app}", guarded { [self] request, parameters in try appEntry(request, parameters) })
        // Before `/{app}/{layout}`: `reset` is no layout.
        router.get(
            "/{app}/reset", guarded { [self] request, parameters in try resetDemoConfirmation(request, parameters) })
        router.post("/{app}/reset", guarded { [self] request, parameters in try resetDemo(request, parameters) })
        router.get(
            "/{app}/export.swift", guarded { [self] request, parameters in try swiftExport(request, parameters) })
        // Before `/{app}/{layout}`: `stage` is no layout.
        router.get("/{app}/stage", guarded { [self] request, parameters in try showcase(request, parameters) })
        addLiveRoutes(to: &router)
        router.get("/{app}/{layout}", guarded { [self] request, parameters in try layoutEntry(request, parameters) })
        router.get("/{app}/{layout}/{tab}", guarded { [self] request, parameters in try tabPage(request, parameters) })
        router.get(
            "/{app}/{layout}/{tab}/{item}",
            guarded { [self] request, parameters in try detailPage(request, parameters) })
        router.post(
            "/{app}/{layout}/{tab}/action",
            guarded { [self] request, parameters in
                try pageAction(request, parameters)
            })
        // A path no route matches is a 404 in the app's look, whatever the method; one that
        // routes match for other methods is the router's 405.
        router.fallback = guarded { [self] request, _ in try errorPage(request, .notFound, .unknownPage) }
    }
}
