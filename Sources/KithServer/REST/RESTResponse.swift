import Hummingbird
import KithCanonical
import KithRendezvous
import NIOCore

/// Responses of the REST API.
enum RESTResponse {
    /// A JSON body with `status`.
    static func json(_ status: HTTPResponse.Status, _ object: JSONObject) -> Response {
        json(status, value: .object(object))
    }

    /// Any JSON value with `status` (the gateway's device lists are arrays).
    static func json(_ status: HTTPResponse.Status, value: JSONValue) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: CanonicalJSON.serialize(value))))
    }

    /// A plain-text body with `status` (Inviso's `200 OK` on delete).
    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// An empty body with `status` (`204` on a pending check).
    static func empty(_ status: HTTPResponse.Status) -> Response {
        Response(status: status)
    }
}
