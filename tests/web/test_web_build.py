# The web page's build and server (fathom web), and the page's ether under node: the folder holds
# the pinned interpreter and the firmware as the units load it, a tarball that is not the pinned
# one is refused, the server gives the types a browser insists on, and the in-page ether keeps
# the emulator's rules (an acknowledgement says who was there, not what arrived).
import base64
import json
import pathlib
import re
import shutil
import subprocess
import sys
import urllib.request

import pytest

from fathom_host import FIRMWARE, FathomError, web

ETHER = pathlib.Path(web.WEB / "ether.js")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return web.build(tmp_path_factory.mktemp("web") / "site")


def test_the_folder_holds_the_interpreter_and_the_firmware(built):
    assert (built / "vendor" / "micropython.wasm").read_bytes()[:4] == b"\0asm"
    for name in web.PAGE_FILES:
        assert (built / name).exists(), name
    bundle = json.loads((built / "firmware.json").read_text())
    assert bundle["files"]["main.py"] == (FIRMWARE / "main.py").read_text()
    mpy = base64.b64decode(bundle["binary"]["fathom/app.mpy"])
    assert mpy[:2] == b"M\x06"   # compiled for MicroPython's bytecode format 6
    n_modules = len(list((FIRMWARE / "fathom").rglob("*.py")))
    assert len([p for p in bundle["binary"] if p.startswith("fathom/")]) == n_modules
    assert "fathom/games/ping/help.txt" in bundle["files"]
    for twin in ("web/hub.py", "web/etherwire.py", "web/os.py", "twins/machine.py"):
        assert twin in bundle["files"], twin
    assert bundle["boards"]["esp32c3_oled_72x40"]["display"]["width"] == 72


def test_a_tarball_that_is_not_the_pinned_one_is_refused(tmp_path, monkeypatch):
    good = web.vendored()
    assert web._digest_ok(good)
    bad = tmp_path / good.name
    data = bytearray(good.read_bytes())
    data[len(data) // 2] ^= 1
    bad.write_bytes(bytes(data))
    assert not web._digest_ok(bad)
    monkeypatch.setattr(web.shutil, "which", lambda name: None)  # and npm cannot fetch it again
    with pytest.raises(FathomError, match="npm"):
        web.vendored(cache=tmp_path)


def test_fathom_web_serves_and_prints_its_address(built):
    proc = subprocess.Popen([sys.executable, "-m", "fathom_host.cli", "web", "--port", "0",
                             "--out", str(built)], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.match(r"fathom web: (http://127\.0\.0\.1:\d+/)", line)
        assert m, line
        types = {}
        for name in ("index.html", "app.js", "vendor/micropython.mjs", "vendor/micropython.wasm",
                     "firmware.json"):
            with urllib.request.urlopen(m.group(1) + name) as r:
                types[name] = r.headers["Content-Type"]
        assert types["vendor/micropython.wasm"] == "application/wasm"
        assert types["vendor/micropython.mjs"].startswith("text/javascript")
        assert types["index.html"].startswith("text/html")
    finally:
        proc.terminate()
        proc.wait(10)


NODE_CHECK = r"""
import {Ether, hexToBytes} from "%s";
const e = new Ether(7);
const a = e.connect(0, {kind: "espnow", unit: 0, mac: "020000000001", channel: 1});
const b = e.connect(1, {kind: "espnow", unit: 1, mac: "020000000002", channel: 1});
const c = e.connect(2, {kind: "espnow", unit: 2, mac: "020000000003", channel: 6});
const send = (to) => e.put(a, "S", hexToBytes(to + "00" + "68656c6c6f"));
const out = {};
send("020000000002"); out.plain = [e.take(a), e.take(b)];
send("020000000003"); out.other_channel = [e.take(a), e.take(c)];
e.set({loss: 1}); send("020000000002"); out.lost = [e.take(a), e.take(b)];
e.set({loss: 0}); e.partition([[1, 0]]); send("020000000002"); out.cut = [e.take(a), e.take(b)];
e.partition([]); e.set({dup: 1}); send("020000000002"); out.dup = e.take(b).split(",").length;
e.set({dup: 0, delay_ms: 1e9}); send("020000000002"); out.delayed = [e.take(b), e.pending()];
try { e.set({loss: 2}); } catch (err) { out.refused = String(err); }
const u0 = e.connect(0, {kind: "uart", unit: 0, pipe: "uart", end: 0});
const u1 = e.connect(1, {kind: "uart", unit: 1, pipe: "uart", end: 1});
e.set({delay_ms: 0}); e.put(u0, "W", hexToBytes("01020304")); out.cable = e.take(u1);
console.log(JSON.stringify(out));
"""


def test_the_pages_ether_keeps_the_emulators_rules(tmp_path):
    node = shutil.which("node")
    if node is None:
        raise FathomError("no node: `make setup` installs nodejs")
    script = tmp_path / "check.mjs"
    script.write_text(NODE_CHECK % ETHER.resolve().as_uri())
    got = json.loads(subprocess.run([node, str(script)], capture_output=True, text=True,
                                    check=True).stdout)
    assert got["plain"] == ["A01", "R0200000000010068656c6c6f"]
    assert got["other_channel"] == ["A00", ""]        # nobody there: not acknowledged
    assert got["lost"] == ["A01", ""]                  # acknowledged, then lost in the air
    assert got["cut"] == ["A00", ""]                   # partitioned: not acknowledged
    assert got["dup"] == 2
    assert got["delayed"] == ["", 1]
    assert "probability" in got["refused"]
    assert got["cable"] == "B01020304"
