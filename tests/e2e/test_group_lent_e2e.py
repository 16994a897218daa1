# Units lent as the bot opponent join a group like any partner (link/lent.py), with real
# emulated units over the ether's ESP-NOW (`fathom sim --lent`): two lent units and a Sugar Dog
# host, two games in a row. Two lent units never pair with each other (each waits to be hailed,
# the host hails both), and the second game, in which every unit remembers its pairing with the
# host, still forms: a lent unit that holds the host's radio key answers the host's clear hello
# in clear once its own encrypted one goes unacknowledged (a group runs in clear, PROTOCOL.md 7a).
# And a lent unit's second session with a remembered two-player proposer is still encrypted by
# the radio from its first frame: the lent unit installed the key on hearing its beacon.
import json
import subprocess
import sys

import pytest

from kit.e2e import home_without_game, lent_pair, propose

pytestmark = pytest.mark.slow

TITLE = "Lake Ashtapada"


def sim(*argv):
    out = subprocess.run([sys.executable, "-m", "fathom_host.cli", "sim"] + list(argv),
                         capture_output=True, text=True, timeout=600)
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    assert lines, out.stdout[-2000:] + out.stderr[-2000:]
    return json.loads(lines[-1])


def test_two_lent_units_join_a_group_twice():
    r = sim("--game", "sugardog", "--units", "3", "--link", "espnow", "--lent", "--games", "2",
            "--option", "calm=10", "--timeout", "240", "--seed", "4")
    assert r["completed"] == 2, r.get("failures")
    assert r["desyncs"] == 0 and r["audit_failures"] == 0 and r["crashes"] == 0, r


def test_a_lent_units_remembered_partner_is_encrypted_from_the_first_frame(tmp_path):
    with lent_pair(tmp_path, 41) as (ether, me, lent):
        propose(me, TITLE)
        for u in (me, lent):
            u.wait_text("OK yes", 60)   # the code's keys, a second after it shows
            u.press("OK")
        for u in (me, lent):
            u.wait_text(TITLE, 60)
        for u in (me, lent):
            home_without_game(u)
        mark = len(ether.capture)
        lent.choose("Play as bot")
        lent.wait_text("Looking for", 10)
        me.choose(TITLE)
        me.choose("vs other unit")
        me.wait_text("Choose a unit", 30)
        lent.wait(lambda c: len(ether.capture) > mark and any(
            s.src == 0 and s.dst == "*" for s in ether.capture[mark:]), 30, "a beacon")
        me.press("OK")
        for u in (me, lent):
            u.wait_text(TITLE, 60)
            assert not any("Code" in l for l in u.text), u.text
        between = [s for s in ether.capture[mark:] if s.link == "espnow" and s.dst != "*"]
        assert len(between) > 4
        assert all(s.enc for s in between), [(s.src, s.dst, s.enc) for s in between[:12]]
