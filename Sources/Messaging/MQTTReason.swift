import CMosquitto
import Glibc

/// libmosquitto's result codes in words for people, and which of them end its network loop.
enum MQTTReason {
    /// Why the connection ended, from the code libmosquitto's disconnect callback gives, the
    /// `errno` at that moment (for `MOSQ_ERR_ERRNO`) and the last error it logged (OpenSSL's
    /// words for a TLS failure are only there).
    static func disconnect(code: Int32, errno number: Int32, logged: String?) -> String {
        switch code {
        case 0:
            return "closed by rec"
        case MOSQ_ERR_CONN_LOST.rawValue:
            return "the connection to the broker was lost"
        case MOSQ_ERR_KEEPALIVE.rawValue:
            return "the broker stopped answering (nothing within the keepalive)"
        case _ where isTLS(code, errno: number, logged: logged):
            let detail = logged.map { " (\($0))" } ?? ""
            return "TLS failed\(detail): if the broker's certificate comes from a CA of your own, give its file "
                + "with ?ca=PATH; if it names another host than the URL, add ?insecure"
        case MOSQ_ERR_ERRNO.rawValue:
            return String(cString: strerror(number)).lowercased()
        default:
            return text(code)
        }
    }

    /// libmosquitto's own words for `code` (`mosquitto_strerror`).
    static func text(_ code: Int32) -> String {
        mosquitto_strerror(code).map { String(cString: $0) } ?? "libmosquitto error \(code)"
    }

    /// Whether a failure is TLS's: libmosquitto's TLS codes, or a socket error (`EPROTO`) after
    /// it logged what OpenSSL said.
    static func isTLS(_ code: Int32, errno number: Int32, logged: String?) -> Bool {
        code == MOSQ_ERR_TLS.rawValue || code == MOSQ_ERR_TLS_HANDSHAKE.rawValue
            || (code == MOSQ_ERR_ERRNO.rawValue && number == EPROTO && logged?.contains("OpenSSL") == true)
    }

    /// Whether libmosquitto's loop (`mosquitto_loop_forever`, which `mosquitto_loop_start` runs)
    /// returns instead of reconnecting after a failure with this code: its list in lib/loop.c
    /// (2.0.11), and any failure with `errno` EPROTO (a TLS error while reading).
    static func endsTheLoop(_ code: Int32, errno number: Int32) -> Bool {
        let fatal: [mosq_err_t] = [MOSQ_ERR_NOMEM, MOSQ_ERR_PROTOCOL, MOSQ_ERR_INVAL, MOSQ_ERR_NOT_FOUND, MOSQ_ERR_TLS,
                                   MOSQ_ERR_PAYLOAD_SIZE, MOSQ_ERR_NOT_SUPPORTED, MOSQ_ERR_AUTH, MOSQ_ERR_ACL_DENIED,
                                   MOSQ_ERR_UNKNOWN, MOSQ_ERR_EAI, MOSQ_ERR_PROXY]
        return fatal.contains { $0.rawValue == code } || number == EPROTO
    }
}
