# A modified group host is named, end to end through the keys: three
# emulated units pair as a Sugar Dog group over the ether's ESP-NOW and their scripted players
# play through the keys, but the host runs a modified firmware (kit/cheat_firmware.py, the
# rewrite in firmware/hostmodes/cheat.py): it relays one move of P2 to P3 as a cruise to another square,
# with the short hash recomputed so no desync shows. P3's end-to-end tag check refuses it and
# its screen names the host; the capture shows the rewrite went on the air; P3's journal keeps
# the finding across a reboot. The control: the same group on the unmodified firmware plays to
# a verified end on every unit.
import re

import pytest

from kit.capture import keyed_messages
from kit.cheat_firmware import cheat_env, modified_firmware
from fathom_host.emulator.drive import finished, play_out, player_env
from fathom.codec import decode
from fathom.hal.records import scan_records
from fathom_host.emulator.drive import pair_group
from fathom_host.emulator.ether import Ether
from fathom_host.emulator.units import Emulator

# whole 3-unit games, a minute or more each under load: make bench
pytestmark = pytest.mark.bench

TITLE = "Sugar Dog"
AT = 6                  # the rewritten move: P2's first from this log index on (set-ups: 0-2)


def journal(u):
    with open(str(u.dir / "data" / "game"), "rb") as f:
        return [decode(body) for _p, _e, body in scan_records(f)]


def journal_when(u, pred, what, timeout=10):
    """The journal once pred(records) holds: a unit writes its records after the screen that
    shows them (Runner.tick's draw_first), so a screen alone does not say they are there."""
    recs = []

    def holds(_c):
        recs[:] = journal(u)
        return pred(recs)
    u.wait(holds, timeout, what)
    return recs


def events(recs):
    """[(author, event)] of every event the journal holds, in log order."""
    return [(r[1], r[2]) for r in recs[1:] if r[0] == "e"]


def calm10(host):
    """The host's game menu: the shortest game ('Calm rounds: 10')."""
    for _ in range(6):
        sel = host.selected() or ""
        if sel.startswith("Calm rounds") and sel.endswith(": 10"):
            return
        host.choose("Calm rounds")
    raise AssertionError("could not set Calm rounds on the host: %r" % (host.text,))


def form(tmp_path, seed, host_env=None, partner_env=None):
    """Three units, paired as a group through their keys, on their game screens (host_env(u),
    partner_env(u): more environment for the host, for each partner)."""
    ether = Ether(seed=seed)
    ether.start()
    emu = Emulator(3, workdir=tmp_path, ether=ether)
    for u in emu.units:  # a sharp host, easy partners: the control's game ends in a few rounds
        u.extra_env.update(player_env("sharp" if u.index == 0 else "easy"))
    if host_env is not None:
        emu.units[0].extra_env.update(host_env(emu.units[0]))
    for u in emu.units[1:] if partner_env is not None else ():
        u.extra_env.update(partner_env(u))
    try:
        for u in emu.units:
            u.start(wait=False)
        for u in emu.units:
            u.wait(lambda c: c.text and c.screen is not None, 60, "boot")
        pair_group(emu.units, TITLE, options=calm10)
        for u in emu.units:
            u.wait(lambda c: c.text and c.text[0].startswith(TITLE), 120, "the game screen")
    except BaseException:
        close(ether, emu)
        raise
    return ether, emu


def close(ether, emu):
    emu.close()
    ether.stop()


def desync_screen(c):
    return c.text[:1] == ["DESYNC"]


def relayed(capture, src, dst, idx, author):
    """The event messages `src` put on the air for `dst` with log index `idx` by `author`."""
    out = []
    for _k, _s, data in keyed_messages([s for s in capture if s.src == src and s.dst == dst]):
        try:
            m = decode(data)
        except Exception:
            continue  # not a codec value: nothing of a game's
        if isinstance(m, list) and m[:1] == ["ev"] and m[1] == idx and m[2] == author:
            out.append(m)
    return out


def test_a_host_rewriting_one_relayed_event_is_named(tmp_path):
    fw = modified_firmware(tmp_path / "modified")
    ether, emu = form(tmp_path / "cheat", 41, lambda u: cheat_env(u, fw, 1, 2, AT))
    host, p2, p3 = emu.units
    try:
        c = p3.wait(lambda c: desync_screen(c) or bool(c.text) and c.text[0] == "Result",
                    240, "P3 refusing the rewritten event")
        assert desync_screen(c), "the game ended and the cheat never fired:\n%s" % (
            host.console()[-2000:])
        lines = list(c.text)
        m = re.match(r"Units disagree at event (\d+)\.$", lines[1])
        assert m, lines
        idx = int(m.group(1))
        named = "the host (P1) altered P2's event %d or the game before it" % idx
        assert lines[2] == named, lines
        assert idx >= AT
        # the cheat happened: P2's move went to P3 rewritten, with P2's own tags (the host
        # cannot make P3's) and a short hash that agrees with the rewrite, and to nobody else
        sent = relayed(ether.capture, 1, 0, idx, 1)
        assert sent, "P2 never sent event %d" % idx
        true = sent[0]
        forged = relayed(ether.capture, 0, 2, idx, 1)
        assert forged and all(f == forged[0] for f in forged), forged
        forged = forged[0]
        assert forged[3] != true[3] and forged[3][0] == "c", (true, forged)
        assert forged[4] != true[4] and forged[6] == true[6], (true, forged)
        assert forged[:3] == true[:3] and forged[5] == true[5]
        # the host and P2 hold the true event (their game goes on until it waits for P3)
        assert events(journal(host))[idx] == (1, true[3]) == events(journal(p2))[idx]
        # the altered event never entered P3's log; the finding is journalled
        recs = journal_when(p3, lambda recs: ["x", idx, named] in recs, "the journalled finding")
        assert len(events(recs)) == idx
        # nothing crashed: every unit runs, no unit's console shows a traceback
        for u in emu.units:
            assert u.alive(), (u.index, u.console()[-2000:])
            assert "Traceback" not in u.console(), (u.index, u.console()[-3000:])
        assert "relayed to P3 as" in host.console()
        # P3 reboots: the same finding again, not a game played on
        p3.kill()
        p3.start(wait=False)
        p3.wait(lambda c: c.screens and desync_screen(c), 60, "the finding after a reboot")
        assert p3.text == lines, (p3.text, lines)
        assert len(events(journal(p3))) == idx
        assert "Traceback" not in p3.console()
        print("the host rewrote P2's event %d %r to P3 as %r; P3 named it, and again after "
              "a reboot" % (idx, true[3], forged[3]))
    finally:
        close(ether, emu)


def test_the_same_group_on_the_unmodified_firmware_ends_verified(tmp_path):
    ether, emu = form(tmp_path, 41)
    try:
        results, _reports = play_out(emu.units, timeout=300)
        for u, lines in zip(emu.units, results):
            assert finished(u) and lines[0] == "Result" and "verified" in lines, (u.index, lines)
        logs = [events(journal(u)) for u in emu.units]
        assert all(log == logs[0] for log in logs) and len(logs[0]) > AT
        assert "cheat:" not in emu.units[0].console()
    finally:
        close(ether, emu)
