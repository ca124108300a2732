import HTTPTesting
import Snapshots

/// `tabstage healthcheck [URL]`: one GET, exit 0 on a 2xx answer. The container image has no
/// curl, so its HEALTHCHECK runs the binary itself (see Containerfile and docs/hosting.md).
enum HealthcheckCommand: Subcommand {
    static let name = "healthcheck"
    static let summary = "Exit 0 when a URL answers 2xx (a container's health check)"
    static let defaultURL = "http://127.0.0.1:8080/healthz"
    static let usage = """
        Usage: tabstage healthcheck [--timeout SECONDS] [URL]

        Sends one GET to URL (default \(defaultURL)) and exits 0 when the answer's
        status is 2xx, printing 'URL: STATUS'; exits 1 with the status or the connection's
        error otherwise. URL is plain http://HOST[:PORT][/PATH], HOST a name, an IPv4 address or
        an IPv6 one in brackets. /healthz answers 503 while the session store cannot serve.

        Options:
          --timeout SECONDS   Give up after this long, connecting and reading (default 5)

        """
    static let options: [OptionSpec] = [OptionSpec("timeout")]

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        let target: HTTPURL
        let timeout: Int
        do throws(UsageError) {
            guard parsed.positionals.count <= 1 else { throw UsageError("give at most one URL") }
            do throws(HTTPURL.Problem) {
                target = try HTTPURL(parsed.positionals.first ?? defaultURL)
            } catch {
                throw UsageError(error.description)
            }
            timeout = try parsed.integer("timeout", default: 5, in: 1...600)
        } catch {
            return TabStageCLI.usageError(error, for: self, console: console)
        }
        let url = parsed.positionals.first ?? defaultURL
        let client = HTTPTestClient(port: target.port, host: target.host, timeoutSeconds: timeout)
        do throws(TestClientError) {
            let response = try client.get(target.path, headers: ["User-Agent": "tabstage-healthcheck"])
            let status = "\(response.status) \(response.reasonPhrase)"
            guard (200..<300).contains(response.status) else {
                console.err("tabstage healthcheck: \(url): \(status)\n")
                return ExitCode.failure
            }
            console.out("\(url): \(status)\n")
            return ExitCode.success
        } catch {
            console.err("tabstage healthcheck: \(url): \(error)\n")
            return ExitCode.failure
        }
    }
}
