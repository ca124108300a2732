extension Router {
    /// Serves `files` under `prefix` (e.g. `/static`): `GET /static/css/site.css` reads `css/site.css`.
    public mutating func staticFiles(_ files: StaticFiles, at prefix: String) {
        let prefixCount = RoutePattern(prefix).segments.count
        get(prefix + "/{path...}") { request, _ in
            files.response(for: request, segments: request.pathSegments.dropFirst(prefixCount))
        }
    }
}
