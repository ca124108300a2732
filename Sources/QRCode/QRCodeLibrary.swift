import CQRencode

#if canImport(Glibc)
    import Glibc
#endif

/// libqrencode, opened with `dlopen` the first time a code is asked for, never linked: a binary
/// that does not find it still runs, and draws follow links without their code. `make dist`'s
/// tarball ships the library in `lib/` beside the binary, so the code is drawn wherever the
/// tarball is unpacked; a build from source finds the system's (Debian's libqrencode4).
///
/// Its two functions are C pointers from `dlsym`, kept for the life of the process (the library
/// is never closed), so the type is Sendable by that rule.
public final class QRCodeLibrary: @unchecked Sendable {
    typealias Encode = @convention(c) (UnsafePointer<CChar>?, Int32, QRecLevel) -> UnsafeMutablePointer<QRcode>?
    typealias Free = @convention(c) (UnsafeMutablePointer<QRcode>?) -> Void

    let encode: Encode
    let free: Free

    private init(encode: Encode, free: Free) {
        self.encode = encode
        self.free = free
    }

    /// The library, or why there is none.
    public struct Loading: Sendable {
        public let library: QRCodeLibrary?
        public let problem: String?
    }

    /// The process's library, looked for once, at the first code.
    public static let shared = load(from: searchPaths)

    /// Where it is looked for, in order: the tarball's copy (`lib/` beside the binary), then the
    /// system's by its name.
    public static var searchPaths: [String] {
        var paths: [String] = []
        if let folder = executableFolder { paths.append(folder + "/lib/libqrencode.so.4") }
        paths.append("libqrencode.so.4")
        return paths
    }

    /// The first of `paths` that opens and has both functions.
    public static func load(from paths: [String]) -> Loading {
        for path in paths {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { continue }
            guard let encode = dlsym(handle, "QRcode_encodeString8bit"), let free = dlsym(handle, "QRcode_free")
            else {
                dlclose(handle)
                continue
            }
            let library = QRCodeLibrary(
                encode: unsafeBitCast(encode, to: Encode.self), free: unsafeBitCast(free, to: Free.self))
            return Loading(library: library, problem: nil)
        }
        let sought = paths.joined(separator: ", ")
        return Loading(
            library: nil,
            problem: "follow links are shown without a QR code: libqrencode was not found at \(sought) "
                + "(install Debian's libqrencode4)")
    }

    /// The folder of the running binary, read from /proc/self/exe.
    private static var executableFolder: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
