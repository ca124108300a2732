/// A strong validator for file contents: FNV-1a 64 over the bytes plus their length.
/// Not cryptographic; it only has to change whenever a file's bytes change. Its own module, so
/// that the build tool embedding Public/ (Sources/embed-public-files) and the server that reads
/// a `--public` folder give the same bytes the same tag.
public enum ContentHash {
    public static func entityTag(for bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return "\"" + hex(hash, width: 16) + "-" + String(bytes.count, radix: 16) + "\""
    }

    private static func hex(_ value: UInt64, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
