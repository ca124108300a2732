import ContentHash

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a static-file folder could not be loaded.
public enum StaticFilesError: Error, Equatable, CustomStringConvertible {
    case notADirectory(String)
    case unreadable(String)
    case tooLarge(String, limit: Int)

    public var description: String {
        switch self {
        case .notADirectory(let path): "the static files folder '\(path)' does not exist or is not a folder"
        case .unreadable(let path): "cannot read '\(path)'"
        case .tooLarge(let path, let limit): "the static files under '\(path)' exceed \(limit) bytes"
        }
    }
}

/// Files under one root folder, read into memory once at start.
///
/// The folder is small, so reading it once makes every request a dictionary lookup and makes
/// escaping the root impossible by construction: only files found by walking the root (with
/// symlinks resolved and checked to stay inside it) can ever be served. Restart to pick up edits.
public struct StaticFiles: Sendable {
    /// Files carry no fingerprint in their names, so a browser may reuse them for an hour and then
    /// revalidates cheaply with `If-None-Match`; an edit reaches everyone within the hour. They
    /// carry no credentials, so shared caches may keep them without being told `public`.
    public static let cacheControl = "max-age=3600"

    public let root: String
    /// Keyed by the path's segments, so a request's own segments find a file without joining them.
    private let files: [ArraySlice<String>: TaggedResponses]

    /// Loads every regular file under `root`, skipping dot-files and anything whose real path lies outside.
    public init(root: String, byteLimit: Int = 64 * 1024 * 1024) throws(StaticFilesError) {
        guard let realRoot = Self.realPath(root), Self.isDirectory(realRoot) else { throw .notADirectory(root) }
        self.root = realRoot
        var files: [ArraySlice<String>: TaggedResponses] = [:]
        var total = 0
        try Self.walk(
            realRoot, relative: [], realRoot: realRoot, depth: 0, files: &files, total: &total, byteLimit: byteLimit)
        self.files = files
    }

    /// A file compiled into the binary (see Plugins/EmbedPublicFiles), its tag computed when built.
    public struct EmbeddedFile: Sendable {
        public let path: String
        public let entityTag: String
        public let text: String

        public init(path: String, entityTag: String, text: String) {
            self.path = path
            self.entityTag = entityTag
            self.text = text
        }
    }

    /// Files compiled into the binary, served as a folder's would be; `root` names no folder.
    public init(embedded: [EmbeddedFile]) {
        root = "(built in)"
        var files: [ArraySlice<String>: TaggedResponses] = [:]
        for file in embedded {
            let segments = file.path.split(separator: "/").map(String.init)
            files[segments[...]] = TaggedResponses(
                body: Array(file.text.utf8), contentType: ContentTypes.forFileName(segments.last ?? file.path),
                entityTag: file.entityTag, cacheControl: Self.cacheControl)
        }
        self.files = files
    }

    /// 200 with the file, 304 when `If-None-Match` matches, 400 for a path that tries to leave the
    /// folder, 404 when there is no such file.
    public func response(for request: Request, segments: [String]) -> Response {
        response(for: request, segments: segments[...])
    }

    func response(for request: Request, segments: ArraySlice<String>) -> Response {
        guard Self.segmentsAreSafe(segments) else { return .statusPage(.badRequest, message: "invalid file path") }
        guard let file = files[segments] else { return .statusPage(.notFound) }
        return file.response(to: request)
    }

    /// Refuses every spelling of "somewhere else": `..`, `.`, empty segments (`//` or a leading
    /// absolute path), backslashes, NUL bytes and decoded slashes (`%2f`).
    static func segmentsAreSafe(_ segments: ArraySlice<String>) -> Bool {
        guard !segments.isEmpty else { return false }
        return segments.allSatisfy { segment in
            !segment.isEmpty && segment != "." && segment != ".."
                && !segment.utf8.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }
        }
    }

    private static func walk(
        _ directory: String, relative: [String], realRoot: String, depth: Int,
        files: inout [ArraySlice<String>: TaggedResponses],
        total: inout Int, byteLimit: Int
    ) throws(StaticFilesError) {
        // Symlinked folders may point back up inside the root; the depth bound stops such loops.
        guard depth < 16 else { return }
        for name in try entries(of: directory) where !name.hasPrefix(".") {
            let path = directory + "/" + name
            guard let real = realPath(path), real == realRoot || real.hasPrefix(realRoot + "/") else { continue }
            if isDirectory(real) {
                try walk(
                    real, relative: relative + [name], realRoot: realRoot, depth: depth + 1, files: &files,
                    total: &total, byteLimit: byteLimit)
            } else if isRegularFile(real) {
                let bytes = try readFile(real)
                total += bytes.count
                guard total <= byteLimit else { throw .tooLarge(realRoot, limit: byteLimit) }
                files[(relative + [name])[...]] = TaggedResponses(
                    body: bytes, contentType: ContentTypes.forFileName(name),
                    entityTag: ContentHash.entityTag(for: bytes), cacheControl: cacheControl)
            }
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    private static func isDirectory(_ path: String) -> Bool { mode(path) == S_IFDIR }
    private static func isRegularFile(_ path: String) -> Bool { mode(path) == S_IFREG }

    private static func entries(of directory: String) throws(StaticFilesError) -> [String] {
        guard let handle = opendir(directory) else { throw .unreadable(directory) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    private static func readFile(_ path: String) throws(StaticFilesError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }
}
