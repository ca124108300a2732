import CMicroHTTPD

/// A libmicrohttpd response (status line aside: headers and a private copy of the body) built
/// once and queued on any number of connections at once. libmicrohttpd counts the connections
/// using it under its own lock, so it lives until the last of them is done even after this
/// object is gone; nothing changes it after `init`, which makes sharing it across threads safe.
final class PreparedResponse: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Nil when libmicrohttpd cannot hold the response (e.g. a header with CR or LF): such a
    /// response must go through the server's ordinary path, which answers 500.
    init?(_ response: Response) {
        guard Server.hasSafeHeaders(response) else { return nil }
        let body = response.status.allowsBody ? response.body : []
        let created = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let created else { return nil }
        guard Server.addHeaders(response.headers, to: created) else {
            MHD_destroy_response(created)
            return nil
        }
        pointer = created
    }

    deinit { MHD_destroy_response(pointer) }
}

extension Response {
    /// This response with its headers and body handed to libmicrohttpd once, for answers that
    /// never change (static files, rendered icons): the server then queues the very same
    /// libmicrohttpd response for every request, without copying the body or adding headers.
    ///
    /// Keep the result (e.g. in a table built at start) and return it from a handler. It is
    /// still an ordinary `Response`: changing its status, headers or body drops the prepared
    /// form and the server builds it per request as usual.
    public func prepared() -> Response {
        guard preparedForm == nil else { return self }
        var copy = self
        // Every response says nosniff; the server cannot add it to a prepared one later.
        copy.headers.addNoSniff()
        copy.preparedForm = PreparedResponse(copy)
        return copy
    }
}
