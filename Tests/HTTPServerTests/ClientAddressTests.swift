import CMicroHTTPD
import Testing

@testable import HTTPServer

/// A request keeps its client's address as the socket's bytes; `remoteAddress` writes them out.
@Suite struct ClientAddressTests {
    static func peer(family: Int32, _ bytes: [UInt8]) -> ClientAddress {
        var peer = tabstage_peer()
        peer.family = family
        withUnsafeMutableBytes(of: &peer.bytes) { room in
            for (index, byte) in bytes.enumerated() { room[index] = byte }
        }
        return .peer(peer)
    }

    @Test func aPeersBytesAreWrittenInNumericForm() {
        #expect(Self.peer(family: AF_INET, [127, 0, 0, 1]).text == "127.0.0.1")
        #expect(Self.peer(family: AF_INET, [10, 200, 9, 255]).text == "10.200.9.255")
        #expect(Self.peer(family: AF_INET, [0, 0, 0, 0]).text == "0.0.0.0")
        let loopback6 = [UInt8](repeating: 0, count: 15) + [1]
        #expect(Self.peer(family: AF_INET6, loopback6).text == "::1")
        let documentation = [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 10) + [0x12, 0x34]
        #expect(Self.peer(family: AF_INET6, documentation).text == "2001:db8::1234")
        #expect(Self.peer(family: 0, [127, 0, 0, 1]).text == "")
    }

    @Test func aRequestsAddressReadsAsTheServerWroteItOrAsSet() throws {
        var request = try Request(
            method: .get, target: "/", headers: HTTPHeaders(), body: [],
            client: Self.peer(family: AF_INET, [192, 168, 1, 20]))
        #expect(request.remoteAddress == "192.168.1.20")
        request.remoteAddress = "10.0.0.1"
        #expect(request.remoteAddress == "10.0.0.1")
        #expect(try Request(method: .get, target: "/", remoteAddress: "::1").remoteAddress == "::1")
    }
}
