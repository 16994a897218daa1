# UartLink opens the UART with driver buffers that hold whole frames: the ESP32's default txbuf
# (256 bytes) is smaller than one wrapped frame (uartframe.MAX_WIRE), so writing a full frame
# would wait for the line to drain in the middle of the app loop.
import sys
import types

from fathom.link import uartframe


def _open_with_recording_uart():
    seen = {}

    class UART:
        def __init__(self, id, **kw):
            seen["id"] = id
            seen.update(kw)

    fake = types.ModuleType("machine")
    fake.UART = UART
    saved = sys.modules.get("machine")
    sys.modules["machine"] = fake
    try:
        from fathom.link.uart_link import UartLink
        UartLink({"id": 2, "tx": 17, "rx": 16, "baud": 115200})
    finally:
        if saved is None:
            del sys.modules["machine"]
        else:
            sys.modules["machine"] = saved
    return seen


def test_uart_buffers_hold_two_full_frames_each_way():
    kw = _open_with_recording_uart()
    assert kw["id"] == 2 and kw["tx"] == 17 and kw["rx"] == 16
    assert kw["txbuf"] >= 2 * uartframe.MAX_WIRE
    assert kw["rxbuf"] >= 2 * uartframe.MAX_WIRE
    assert uartframe.MAX_WIRE > 256  # why the default would not do


def test_the_uart_twin_accepts_the_buffer_sizes():
    import fathom
    twins = fathom.__file__.rsplit("/", 2)[0] + "/twins"
    if twins not in sys.path:
        sys.path.insert(0, twins)
    import uart_twin
    from fathom.link.uart_link import UartLink, _RXBUF, _TXBUF
    u = uart_twin.UART(1, baudrate=115200, tx=17, rx=16, txbuf=_TXBUF, rxbuf=_RXBUF)
    link = UartLink({}, u)
    assert link.send(None, b"x" * 250)
    link.close()
