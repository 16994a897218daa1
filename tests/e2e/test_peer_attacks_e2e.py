# A modified peer over the emulated cable and radio, end to end: two real unit processes pair
# for PING through their keys and play through them (their scripted players), but unit 0 runs a
# modified firmware (kit/cheat_firmware.py, firmware/hostmodes/cheat.py's attack mode): mid-game,
# with its partner to act, it sends an event as the player to act (out of turn), a message
# nested sixty lists deep and one larger than a channel reassembles. The partner, on the same
# firmware with only a watch that prints what it refused and counted, names the foul ("refused:
# out of turn: ..."), counts the unreadable message and the oversized one, and the game goes on
# to a verified end on both units with equal logs and hashes.
import os
import re

import pytest

from kit.cheat_firmware import modified_firmware
from fathom_host.emulator.drive import pair, pair_uart, player_env
from kit.e2e import chain, fleet, verified
from fathom_host.emulator import units as hostunits

pytestmark = pytest.mark.slow

AT = 6          # the attack once the log holds this many events (both set-ups are in)


def mode_env(u, fw, spec):
    path = [str(fw)] + hostunits.micropython_path(u.runtime)
    return {"MICROPYPATH": os.pathsep.join(path), "FATHOM_CHEAT": spec}


def console_has(u, pattern, what, timeout=180):
    """Wait (on the unit's screen updates) until its console matches `pattern`: the match."""
    found = []

    def pred(_c):
        m = re.search(pattern, u.console())
        if m:
            found.append(m)
        return bool(m)
    u.wait(pred, timeout, what)
    return found[-1]


def counts(u):
    """The victim's last printed (dropped malformed frames' messages, unreadable messages)."""
    got = re.findall(r"watch: problem=.* counts=\[\((\d+), (\d+)\)\]", u.console())
    return tuple(int(x) for x in got[-1]) if got else (0, 0)


@pytest.mark.parametrize("link", ["uart", "espnow"])
def test_a_modified_peer_over_a_real_link_is_refused_and_the_game_goes_on(tmp_path, link):
    fw = modified_firmware(tmp_path / "fw")
    with fleet(tmp_path / "units", 2, 59) as emu:
        attacker, victim = emu.units
        for u, spec in ((attacker, "attack=%d" % AT), (victim, "watch")):
            u.extra_env.update({"FATHOM_LINK": link})
            u.extra_env.update(player_env("sharp"))
            u.extra_env.update(mode_env(u, fw, spec))
            # the attacker compiles its modified firmware from source on first use, on a heap
            # that also holds what it keeps resending: its memory is the harness's, while the
            # honest unit keeps the unit's heap, the one under test
            u.start(heap="4m" if u is attacker else hostunits.UNIT_HEAP)
        (pair_uart if link == "uart" else pair)(emu.units, "PING")
        console_has(attacker, r"cheat: oversized: \d+ bytes", "the attack sent")
        foul = console_has(victim, r"watch: problem='(refused: out of turn: player (\d) sent, "
                           r"player (\d) to play)'", "the out-of-turn foul named", 60)
        console_has(victim, r"watch: problem='refused: unknown message bad'",
                    "the deep message refused")
        victim.wait(lambda _c: counts(victim)[0] >= 1 and counts(victim)[1] >= 1, 120,
                    "the oversized and the deep message counted")
        assert foul.group(2) != foul.group(3)
        dropped, bad = counts(victim)
        # both end verified (the attacker's screen too: its verdict is in as soon as the
        # honest reveal is) and hold one log and chain of hashes
        victim.wait(lambda c: verified(c.text), 300, "the honest unit's verified result")
        attacker.wait(lambda c: verified(c.text), 60, "the attacker's verified result")
        log = chain(victim)
        assert chain(attacker) == log
        assert all(ev[1] != ["zz", 1] for ev in chain(victim))  # the forged event is not in
        print("PING over %s: refused %r; counted %d oversized (dropped) and %d unreadable; "
              "verified end at %d events" % (link, foul.group(1), dropped, bad, len(log)))
