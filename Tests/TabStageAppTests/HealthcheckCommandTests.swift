import HTTPServer
import HTTPTesting
import Testing

@testable import TabStageCLI

/// `tabstage healthcheck URL`: the container's HEALTHCHECK, with no curl in the image.
@Suite struct HealthcheckCommandTests {
    @Test func aServerWhoseHealthzAnswers200PassesTheCheck() throws {
        let stage = try StageServer()
        let url = "http://127.0.0.1:\(stage.server.port)/healthz"
        let result = runCLI(["healthcheck", url])
        #expect(result.code == 0)
        #expect(result.out == "\(url): 200 OK\n")
        #expect(result.err.isEmpty)
    }

    @Test func anAnswerOtherThan2xxFailsTheCheckAndNamesTheStatus() throws {
        let stage = try StageServer()
        let url = "http://localhost:\(stage.server.port)/no/such/page"
        let result = runCLI(["healthcheck", url])
        #expect(result.code == 1)
        #expect(result.err == "tabstage healthcheck: \(url): 404 Not Found\n")
    }

    @Test func aPortNobodyListensOnFailsTheCheck() throws {
        // A port just freed: nothing listens on it any more.
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.accessLog = nil
        let holder = Server(configuration: configuration, router: Router())
        try holder.start()
        let port = holder.port
        holder.stop()
        let result = runCLI(["healthcheck", "--timeout", "2", "http://127.0.0.1:\(port)/healthz"])
        #expect(result.code == 1)
        #expect(result.err.contains("cannot connect to 127.0.0.1 port \(port)"))
    }

    @Test func onlyAPlainHTTPURLIsAccepted() {
        for url in ["https://127.0.0.1/healthz", "127.0.0.1:8080/healthz", "http://", "http://host:port/"] {
            let result = runCLI(["healthcheck", url])
            #expect(result.code == 2, "\(url)")
            #expect(result.err.contains("Usage: tabstage healthcheck"), "\(url)")
        }
    }

    @Test func theURLDefaultsToThePortServeListensOnByDefault() throws {
        #expect(try HTTPURL(HealthcheckCommand.defaultURL).port == 8080)
        let target = try HTTPURL("http://[::1]:9000")
        #expect(target.host == "::1")
        #expect(target.port == 9000)
        #expect(target.path == "/")
    }
}
