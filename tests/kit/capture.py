# Reading what emulated units put on the air: the channel messages in an Ether capture,
# reassembled per channel from the first transmission of each fragment.
from fathom.link import frame


def keyed_messages(capture, link="espnow"):
    """Every keyed message sent over `link`, in order of its first fragment:
    [(capture index of that fragment, src unit, message bytes)]."""
    streams = {}
    for k, s in enumerate(capture):
        if s.link != link:
            continue
        try:
            ftype, keyed, sid, seq, _ack, payload = frame.parse(bytes(s.data))
        except frame.FrameError:
            continue
        if not keyed or ftype not in (frame.DATA, frame.MORE):
            continue
        st = streams.setdefault((s.src, s.dst, sid), {})
        if seq not in st:
            st[seq] = (k, ftype, bytes(payload))
    out = []
    for (src, _dst, _sid), st in streams.items():
        part, first = b"", None
        for seq in sorted(st):
            k, ftype, payload = st[seq]
            first = k if first is None else first
            part += payload
            if ftype == frame.DATA:
                out.append((first, src, part))
                part, first = b"", None
    out.sort(key=lambda m: m[0])
    return out
