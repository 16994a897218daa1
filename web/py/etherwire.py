# Browser twin of firmware/twins/etherwire.py: a unit's connection to the page's ether
# (web/ether.js) instead of a TCP socket to the emulator's. The same Wire surface, so the espnow
# and UART twins run unchanged: put(type, body), get() -> [(type, body)], connected(), close(),
# rehello(). The page's ether lives in the same thread: a put is handled before it returns (an
# ESP-NOW send's acknowledgement is already waiting), and get() never waits: nothing can arrive
# while this unit runs.
import json

from binascii import hexlify, unhexlify
from time import ticks_diff, ticks_ms  # noqa: F401  (the espnow twin reads them from here)

import page
from unitenv import env, mac_for_unit, unit_index  # noqa: F401  (the twins read them here)


class Wire:
    def __init__(self, hello):
        self.hello = hello
        self.id = page.ether_connect(json.dumps(hello))

    def connected(self):
        return self.id is not None

    def connect(self):
        pass  # the page's ether is always there

    def close(self):
        if self.id is not None:
            page.ether_close(self.id)
        self.id = None

    def rehello(self, hello):
        self.hello = hello
        if self.id is not None:
            page.ether_hello(self.id, json.dumps(hello))

    def put(self, typ, body):
        if self.id is None:
            return False
        page.ether_put(self.id, typ.decode(), hexlify(body).decode())
        return True

    def get(self, timeout_ms=0):
        if self.id is None:
            return []
        got = page.ether_take(self.id)  # "T<hex>,T<hex>": what arrived since the last look
        if not got:
            return []
        return [(m[:1].encode(), unhexlify(m[1:])) for m in got.split(",")]
