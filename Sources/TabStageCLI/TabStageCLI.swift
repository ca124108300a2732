import Foundation
import Snapshots
import TabStageApp

/// The `tabstage` command line: picks the subcommand, prints help and usage errors.
public enum TabStageCLI {
    public static let version = "0.1.0"

    /// Every subcommand, in the order `--help` lists them.
    static var subcommands: [any Subcommand.Type] {
        [
            ServeCommand.self,
            CheckCommand.self,
            SnapshotCommand.self,
            IconCommand.self,
        ]
    }

    public static func run(_ arguments: [String], console: Console) -> Int32 {
        guard let first = arguments.first else {
            console.err(overview)
            return ExitCode.usage
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, let command = subcommand(named: arguments[1]) {
                console.out(command.usage)
            } else {
                console.out(overview)
            }
            return ExitCode.success
        case "--version":
            console.out("tabstage \(version)\n")
            return ExitCode.success
        default:
            break
        }
        guard let command = subcommand(named: first) else {
            console.err("tabstage: unknown command '\(first)'\n\n\(overview)")
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.out(command.usage)
            return ExitCode.success
        }
        do {
            let parsed = try ParsedArguments(rest, options: command.options)
            return command.run(parsed, console: console)
        } catch {
            return usageError(error, for: command, console: console)
        }
    }

    /// Prints a usage error the same way for every subcommand; returns exit code 2.
    public static func usageError(_ error: UsageError, for command: any Subcommand.Type, console: Console) -> Int32 {
        console.err("tabstage \(command.name): \(error.description)\n\n\(command.usage)")
        return ExitCode.usage
    }

    static func subcommand(named name: String) -> (any Subcommand.Type)? {
        subcommands.first { $0.name == name }
    }

    static var overview: String {
        var text = """
            tabstage \(version): a clickable prototype of an app's tab navigation, served to any browser.

            Usage: tabstage <command> [options]

            Commands:

            """
        for command in subcommands {
            text += "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

            Options:
              --help      Show this help, or a command's help (tabstage <command> --help)
              --version   Print the version

            """
        return text
    }
}
