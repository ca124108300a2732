#if canImport(Glibc)
    import Glibc
#endif

/// A helper program started with every signal unblocked and at its default action.
///
/// Not Foundation's `Process`: it passes the starting thread's signal mask on, and test threads
/// may block SIGTERM, which then never reaches the child (a stop that waits forever).
final class ChildProcess {
    let pid: pid_t
    private var exited = false

    /// Starts `path` with `arguments`, its standard output and error sent to `logPath`.
    init(_ path: String, _ arguments: [String], logPath: String) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&files, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&files, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &files, &attributes, argv, environ)
        guard status == 0 else { throw ServiceError("cannot start \(path): \(String(cString: strerror(status)))") }
        pid = child
    }

    deinit { terminate(signal: SIGKILL) }

    /// Whether it still runs (reaping it if it has exited).
    var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    /// Sends `signal` and waits for the exit, killing it if it is still there after `grace` seconds.
    func terminate(signal: Int32, grace: Double = 15) {
        guard isRunning else { return }
        kill(pid, signal)
        var waited = 0.0
        while isRunning && waited < grace {
            usleep(5_000)
            waited += 0.005
        }
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exited = true
        }
    }
}
