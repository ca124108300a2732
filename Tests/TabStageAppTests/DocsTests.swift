import Foundation
import HTTPServer
import Metrics
import Testing

@testable import TabStageApp
@testable import TabStageCLI

/// The docs that list what the code has (routes, flags, modules) are compared with the code, both
/// ways: a route, flag or module added without its line fails, and so does a line left behind.
@Suite struct DocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The backticked `METHOD /path` entries of the first column of `docs/routes.md`'s first
    /// table, the route table.
    static func documentedRoutes() throws -> [String] {
        var routes: [String] = []
        let doc = try text("docs/routes.md")
        let table = doc.drop { $0 != "|" }.split(separator: "\n\n", maxSplits: 1).first ?? ""
        for line in table.split(separator: "\n") where line.hasPrefix("| `") {
            let firstColumn = line.dropFirst(2).prefix { $0 != "|" }
            for (index, part) in firstColumn.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            where index % 2 == 1 {
                routes.append(String(part))
            }
        }
        return routes
    }

    /// Every route of the server, `/metrics` included, in the order the router tries them.
    static func routerRoutes() throws -> [String] {
        let files = try StaticFiles(root: root.appendingPathComponent("Public").path)
        let router = Routes.makeRouter(
            staticFiles: files, application: .deterministic(), metrics: MetricsAccess(metrics: ServerMetrics()))
        return router.routeList
    }

    @Test func docsRoutesListsEveryRouteOfTheRouterAndNoOther() throws {
        let inCode = Set(try Self.routerRoutes())
        let inDocs = Set(try Self.documentedRoutes())
        #expect(inCode.subtracting(inDocs).sorted() == [], "routes missing from docs/routes.md")
        #expect(inDocs.subtracting(inCode).sorted() == [], "routes in docs/routes.md the router does not have")
    }

    /// Where two routes of one method match some path alike (`/{app}/stage`, `/{app}/{layout}`),
    /// the first added wins; the table says the row above does.
    @Test func docsRoutesListsRoutesThatMatchOnePathInTheRoutersOrder() throws {
        let inCode = try Self.routerRoutes()
        let inDocs = try Self.documentedRoutes()
        for (index, first) in inCode.enumerated() {
            for second in inCode[(index + 1)...] where DocumentedRoute.overlap(first, second) {
                guard let firstRow = inDocs.firstIndex(of: first), let secondRow = inDocs.firstIndex(of: second)
                else { continue }
                #expect(firstRow < secondRow, "docs/routes.md lists \(second) above \(first), which wins")
            }
        }
    }

    @Test func twoRoutesOverlapWhenOnePathMatchesBoth() {
        #expect(DocumentedRoute.overlap("GET /{app}/stage", "GET /{app}/{layout}"))
        #expect(DocumentedRoute.overlap("GET /static/{path...}", "GET /{app}/{layout}/{tab}"))
        #expect(DocumentedRoute.overlap("POST /{app}/{layout}/_more/action", "POST /{app}/{layout}/{tab}/action"))
        #expect(!DocumentedRoute.overlap("GET /{app}/stage", "POST /{app}/{layout}"))
        #expect(!DocumentedRoute.overlap("GET /{app}/live", "GET /{app}/{layout}/{tab}"))
        #expect(!DocumentedRoute.overlap("GET /static/{path...}", "GET /{app}"))
        #expect(!DocumentedRoute.overlap("POST /{app}/follow/{code}/leave", "POST /{app}/{layout}/{tab}/action"))
        #expect(!DocumentedRoute.overlap("GET /", "GET /{app}"))
    }

    /// `--flag` words in a text.
    static func flags(in text: some StringProtocol) -> Set<String> {
        var flags = Set<String>()
        var rest = Substring(text)
        while let start = rest.range(of: "--") {
            let name = rest[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let first = name.first, first.isLetter { flags.insert("--" + name) }
            rest = rest[start.upperBound...].dropFirst(name.count)
        }
        return flags
    }

    @Test func docsCLIExplainsEveryServeFlagOfItsHelpAndNoOther() throws {
        let doc = try Self.text("docs/cli.md")
        let start = try #require(doc.range(of: "\n## serve\n"))
        let section = doc[start.upperBound...].prefix { _ in true }
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        let documented = Self.flags(in: section[..<end])
        let printed = runCLI(["serve", "--help"])
        #expect(printed.code == 0)
        let help = Self.flags(in: printed.out)
        #expect(help.subtracting(documented).sorted() == [], "serve flags missing from docs/cli.md")
        #expect(documented.subtracting(help).sorted() == [], "flags in docs/cli.md that serve --help lacks")
        let accepted = Set(ServeCommand.options.map { "--" + $0.name })
        #expect(help == accepted, "serve --help and the options serve accepts differ")
    }

    /// `name: [dependency, …]` for each non-test, non-system target of Package.swift, read as text.
    static func packageTargets() throws -> [String: Set<String>] {
        let package = try text("Package.swift")
        let starts = package.matches(of: /\.(target|executableTarget|testTarget|plugin|systemLibrary)\(/)
        var targets: [String: Set<String>] = [:]
        for (index, start) in starts.enumerated() where start.1 == "target" || start.1 == "executableTarget" {
            let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : package.endIndex
            let body = package[start.range.upperBound..<end]
            guard let name = body.firstMatch(of: /name: "([^"]+)"/)?.1 else { continue }
            var dependencies = Set<String>()
            if let list = body.firstMatch(of: /dependencies: \[([^\]]*)\]/) {
                for quoted in list.1.matches(of: /"([^"]+)"/) { dependencies.insert(String(quoted.1)) }
            }
            targets[String(name)] = dependencies
        }
        return targets
    }

    /// The README's module list: a fenced block after `<!-- modules -->`, one `Module → A, B` a line.
    static func readmeModules() throws -> [String: Set<String>] {
        let readme = try text("README.md")
        let marker = try #require(readme.range(of: "<!-- modules -->"))
        let block = readme[marker.upperBound...].drop { $0 != "`" }.dropFirst(3).drop { $0 != "\n" }
        let end = try #require(block.range(of: "```"))
        var modules: [String: Set<String>] = [:]
        for line in block[..<end.lowerBound].split(separator: "\n") {
            let parts = line.split(separator: "→", maxSplits: 1)
            guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { continue }
            let dependencies = parts.count > 1 ? parts[1].split(separator: ",") : []
            modules[name] = Set(dependencies.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        return modules
    }

    @Test func theReadmesModuleListIsPackageSwiftsTargetsAndDependencies() throws {
        let package = try Self.packageTargets()
        let readme = try Self.readmeModules()
        #expect(package.isEmpty == false)
        for name in Set(package.keys).union(readme.keys).sorted() {
            #expect(
                readme[name] == package[name],
                "\(name): README \(readme[name] ?? []) vs Package.swift \(package[name] ?? [])")
        }
    }
}

/// A route of docs/routes.md or of the router, `METHOD /pattern`.
enum DocumentedRoute {
    /// Whether some path is matched by both routes: one method, and segment by segment a
    /// `{parameter}` (any non-empty segment) or the same literal, up to a `{rest...}` segment,
    /// which takes one or more.
    static func overlap(_ first: String, _ second: String) -> Bool {
        let (firstMethod, firstSegments) = parts(first)
        let (secondMethod, secondSegments) = parts(second)
        guard firstMethod == secondMethod else { return false }
        var index = 0
        while index < firstSegments.count || index < secondSegments.count {
            // One pattern ends where the other wants another segment (a `{rest...}` wants one too).
            guard index < firstSegments.count, index < secondSegments.count else { return false }
            let (left, right) = (firstSegments[index], secondSegments[index])
            if isRemainder(left) || isRemainder(right) { return true }
            let matchesBoth =
                (isParameter(left) && isParameter(right)) || left == right
                || (isParameter(left) && !right.isEmpty) || (isParameter(right) && !left.isEmpty)
            guard matchesBoth else { return false }
            index += 1
        }
        return true
    }

    private static func parts(_ route: String) -> (method: Substring, segments: [Substring]) {
        let method = route.prefix { $0 != " " }
        let path = route.dropFirst(method.count + 1)
        return (method, Array(path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()))
    }

    private static func isParameter(_ segment: Substring) -> Bool { segment.hasPrefix("{") && segment.hasSuffix("}") }
    private static func isRemainder(_ segment: Substring) -> Bool { isParameter(segment) && segment.hasSuffix("...}") }
}
