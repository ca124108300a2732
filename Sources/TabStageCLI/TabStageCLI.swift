import BuildStamp
import Foundation
import Snapshots
import TabStageApp

/// The `tabstage` command line: picks the subcommand, prints help and usage errors.
public enum TabStageCLI {
    /// The version of these sources; the VERSION file at the package root says the same (a test
    /// checks), and `make dist` stamps that file's version and the commit into the binary.
    public static let version = "0.1.0"

    /// The version and commit `make dist` linked into this binary (Sources/BuildStamp); both nil
    /// in an ordinary build.
    struct Stamp: Equatable {
        var version: String?
        var commit: String?

        static var linked: Stamp {
            Stamp(
                version: tabstage_stamped_version().map { String(cString: $0) },
                commit: tabstage_stamped_commit().map { String(cString: $0) })
        }
    }

    /// What `--version` prints: the stamped version and commit, or the sources' version of a
    /// build that recorded none.
    static func versionLine(stamp: Stamp) -> String {
        guard let commit = stamp.commit else { return "tabstage \(version) (development build, no commit recorded)\n" }
        return "tabstage \(stamp.version ?? version) (commit \(commit))\n"
    }

    /// Every subcommand, in the order `--help` lists them.
    static var subcommands: [any Subcommand.Type] {
        [
            ServeCommand.self,
            CheckCommand.self,
            SnapshotCommand.self,
            IconCommand.self,
            HealthcheckCommand.self,
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
            console.out(versionLine(stamp: .linked))
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
            tabstage \(Stamp.linked.version ?? version): a clickable prototype of an app's tab navigation, served to any browser.

            Usage: tabstage <command> [options]

            Commands:

            """
        for command in subcommands {
            text += "  " + command.name.padding(toLength: 13, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

            Options:
              --help       Show this help, or a command's help (tabstage <command> --help)
              --version    Print the version, and the commit of a build made by make dist

            """
        return text
    }
}
