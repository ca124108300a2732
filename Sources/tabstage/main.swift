import Foundation
import TabStageCLI

let console = Console(
    out: { FileHandle.standardOutput.write(Data($0.utf8)) },
    err: { FileHandle.standardError.write(Data($0.utf8)) },
    environment: ProcessInfo.processInfo.environment,
    outIsTerminal: isatty(STDOUT_FILENO) == 1
)
exit(TabStageCLI.run(Array(CommandLine.arguments.dropFirst()), console: console))
