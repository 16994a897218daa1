# Fair play on the link with real emulated units: a listener holding every frame the ether
# carried during a first pairing over ESP-NOW, and during a cable session, cannot compute the
# game's seed (it can with the session key); corrupt, forged-version and reflected frames
# injected while two units pair leave the pairing intact; a unit lent as the bot opponent asks
# its owner to confirm a new partner's code, once.
import threading
import time

import pytest

from kit.e2e import home_without_game, lent_pair, propose
from fathom.hal.storage import Storage
from fathom.journal import FileJournal, header_of
from fathom.link import crypto, frame, uartframe
from fathom_host.emulator.drive import pair, pair_uart
from fathom_host.emulator.ether import Ether, mac_for_unit
from fathom_host.emulator.units import Emulator
from link.test_fairplay_link import listener_guesses, nowhere_in

pytestmark = pytest.mark.slow

TITLE = "Lake Ashtapada"


def saved(unit):
    """(seed, session key) from what the unit stored: the game's journal and its link
    (LinkPeer._persist: [kind, mac, lmk, the channel's save, whose second item is its key])."""
    st = Storage(str(unit.dir / "data"))
    return header_of(FileJournal(st, "game").first())["seed"], st.read_obj("link")[3][1]


def wait_saved(unit):
    """The unit saves its game before it shows the game's screen: wait for that screen (the
    pairing's key agreement can take a minute on a loaded machine), then for the files."""
    unit.wait(lambda c: c.text and c.text[0].startswith(TITLE), 90, "the game screen")
    deadline = time.monotonic() + 10
    while True:
        try:
            return saved(unit)
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def captured_frames(ether, kind):
    """Every frame the ether carried, as a bystander's receiver (or a tap on the cable) gets
    it: (sender, destination, frame bytes)."""
    out = []
    if kind == "espnow":
        for s in ether.capture:
            if s.link == "espnow":
                out.append((s.src, s.dst, bytes(s.data)))
        return out
    for src in (0, 1):
        d = uartframe.Deframer()
        for s in ether.capture:
            if s.link == "uart" and s.src == src:
                out += [(src, None, f) for f in d.feed(bytes(s.data))]
    return out


@pytest.mark.parametrize("kind", ["espnow", "uart"])
def test_a_listener_with_every_frame_cannot_compute_the_seed(tmp_path, kind):
    with Ether(seed=21) as ether:
        with Emulator(2, workdir=tmp_path, ether=ether, env={"FATHOM_LINK": kind}) as emu:
            a, b = emu.units
            (pair if kind == "espnow" else pair_uart)([a, b], TITLE)
            (seed, key), (seed_b, key_b) = wait_saved(a), wait_saved(b)
            heard = captured_frames(ether, kind)
    assert seed == seed_b and key == key_b
    if kind == "espnow":
        assert not any(s.enc for s in ether.capture if s.link == "espnow")  # a first pairing
    assert not any(s == seed for s in listener_guesses(heard))
    assert nowhere_in(heard, seed) and nowhere_in(heard, key)
    assert list(listener_guesses(heard, key)) == [seed]  # the key is all the listener lacked


class Injector:
    """While the units pair: frames for unit 0 as if from unit 1 (a forged sender address is
    one radio call): unit 1's frames with a flipped version bit (corrupt: the CRC no longer
    checks), re-stamped as the next version with a right CRC (forged), and unit 0's own frames sent
    back to it (reflected)."""

    def __init__(self, ether):
        self.ether = ether
        self.sent = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _put(self, data):
        e = self.ether
        with e._lock:
            for c in e._conns:
                if c.kind == "espnow" and c.unit == 0 and not c.closed:
                    e._schedule(time.monotonic(), c, b"R", mac_for_unit(1) + b"\x00" + data)
        e._wake()
        self.sent += 1

    def _run(self):
        while not self.stop.is_set():
            for d in [r.data for r in self.ether.sent_by(1, "espnow")[-2:]]:
                self._put(bytes((d[0] ^ 0x20,)) + d[1:])
                body = bytes(((frame.VERSION + 1) << 4 | (d[0] & 0x0F),)) + d[1:-4]
                if not d[0] & 0x08:
                    self._put(body + crypto.crc32(body).to_bytes(4, "big"))
            for d in [r.data for r in self.ether.sent_by(0, "espnow")[-2:]]:
                self._put(bytes(d))
            time.sleep(0.02)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(5)


def test_injected_corrupt_forged_and_reflected_frames_leave_the_pairing_intact(tmp_path):
    with Ether(seed=22) as ether:
        with Emulator(2, workdir=tmp_path, ether=ether, env={"FATHOM_LINK": "espnow"}) as emu:
            a, b = emu.units
            with Injector(ether) as inj:
                pair([a, b], TITLE)
                for u in (a, b):
                    u.wait_text(TITLE, 60)
            assert inj.sent > 20, inj.sent
            assert wait_saved(a) == wait_saved(b)


def test_a_lent_bot_asks_its_owner_to_confirm_a_new_code_once(tmp_path):
    with lent_pair(tmp_path, 23) as (_, me, lent):
        propose(me, TITLE)
        me.wait_text("OK yes", 60)
        me.press("OK")
        me.wait_text("waiting for", 30)
        lent.wait_text("Same on both?", 30)
        code = [l for l in me.text if l.startswith("Code")]
        assert code and code[0] in lent.text
        # Nothing moves until the owner answers: both screens stay where they are.
        end = time.monotonic() + 3
        while time.monotonic() < end:
            assert any("Same on both?" in l for l in lent.text), lent.text
            assert any("waiting for" in l for l in me.text), me.text
            time.sleep(0.1)
        lent.press("OK")
        for u in (me, lent):
            u.wait_text(TITLE, 60)
        # Both remember the pairing: the next game needs no code on either unit.
        for u in (me, lent):
            home_without_game(u)
        lent.choose("Play as bot")
        propose(me, TITLE)
        for u in (me, lent):
            u.wait(lambda c: any(TITLE in l for l in c.text) or any(
                "Code" in l for l in c.text), 60, "the game or a code")
            assert not any("Code" in l for l in u.text), u.text
