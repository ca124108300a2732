/// `tabstage serve`: runs the HTTP server until SIGINT or SIGTERM.
enum ServeCommand: Subcommand {
    static let name = "serve"
    static let summary = "Serve the prototype over HTTP"
    static let usage = """
        Usage: tabstage serve [--host 127.0.0.1] [--port 8080] [--quiet]

        Options:
          --host HOST   Address to listen on (default 127.0.0.1)
          --port PORT   Port to listen on, 0 picks a free one (default 8080)
          --quiet       Do not write an access-log line per request

        """
    static let options: [OptionSpec] = [OptionSpec("host"), OptionSpec("port"), .flag("quiet")]

    static func run(_ parsed: ParsedArguments, console: Console) -> Int32 {
        console.err("tabstage serve: the HTTP server is not built yet\n")
        return ExitCode.failure
    }
}
