# Storage stand-in for framework tests: same read_obj/write_obj/remove contract, kept in memory
# as encoded bytes so a "reboot" rebuilds everything from bytes, as from flash.
from fathom.codec import decode, encode


class MemStorage:
    def __init__(self):
        self.files = {}

    def write_obj(self, name, obj):
        self.files[name] = encode(obj)

    def read_obj(self, name):
        b = self.files.get(name)
        return None if b is None else decode(b)

    def remove(self, name):
        self.files.pop(name, None)
