import Glibc

/// The kernel node behind an ALSA capture device name, opened to learn why a device would not
/// open: libavdevice reports every ALSA failure as EIO (the reason is only in its log text), so
/// the node's own errno tells "no such device" (ENOENT) from "in use" (EBUSY).
///
/// Only names that map onto one card and device are understood: `hw:1,0`, `plughw:1`,
/// `hw:CARD=C920,DEV=0`, `sysdefault:CARD=PCH`; `default` and other plugins have no single node.
enum ALSACaptureNode {
    /// Where the card's id or number leads.
    enum Card: Equatable {
        case number(Int)
        /// A card id no card has (`/proc/asound/ID` does not exist).
        case unknown
    }

    /// Parses the device name (user input) into its card and device; nil when the name names no
    /// single card. `cards` turns a card's id into its number.
    static func parse(_ name: String, cards: (String) -> Int? = cardNumber) -> (card: Card, device: Int)? {
        guard let colon = name.firstIndex(of: ":"),
              ["hw", "plughw", "sysdefault", "dsnoop", "front"].contains(name[..<colon]) else { return nil }
        var card: Card?
        var device = 0
        for (place, field) in name[name.index(after: colon)...].split(separator: ",").enumerated() {
            let parts = field.split(separator: "=", maxSplits: 1)
            let key = parts.count == 2 ? String(parts[0]) : (place == 0 ? "CARD" : "DEV")
            let value = String(parts.count == 2 ? parts[1] : parts[0])
            switch key {
            case "CARD": card = Int(value).map(Card.number) ?? cards(value).map(Card.number) ?? .unknown
            case "DEV":
                guard let d = Int(value) else { return nil }
                device = d
            default: return nil
            }
        }
        return card.map { ($0, device) }
    }

    /// Why the named device's capture node cannot be opened: ENOENT (no such card or device),
    /// EBUSY (another program has it), EACCES …; 0 if it can; nil when the name has no single
    /// node. The corresponding C function is open(2), with O_NONBLOCK so a busy device answers
    /// at once.
    static func openError(_ name: String) -> Int32? {
        guard let (card, device) = parse(name) else { return nil }
        guard case .number(let n) = card else { return ENOENT }
        let fd = open("/dev/snd/pcmC\(n)D\(device)c", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        close(fd)
        return 0
    }

    /// The number of the card whose id is `id`, from `/proc/asound/ID` → `cardN`.
    static func cardNumber(_ id: String) -> Int? {
        guard !id.isEmpty, !id.contains("/") else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/asound/" + id, &buffer, buffer.count - 1)
        guard count > 4 else { return nil }
        let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.starts(with: "card") ? Int(target.dropFirst(4)) : nil
    }
}
