# A group host that withholds one partner's reveal is named on every unit it could hurt, end to
# end: three emulated units pair as a Sugar Dog group over the ether's ESP-NOW and their scripted
# players play it out, but the host runs a modified firmware (kit/cheat_firmware.py, the withholding
# in firmware/hostmodes/cheat.py) that never relays P2's reveal to P3. P3 cannot tell whether P2
# or the host kept it and rules against both; P2, never told by P3 (through P3's tagged receipt)
# that its reveal arrived, says the host did not deliver it. The reveal limit is lowered
# (FATHOM_REVEAL_MS) so a run waits seconds, not the minute a player would. The control (the
# same group on the unmodified firmware) is test_group_cheat_e2e.py's, and here in the bench.
import pytest

from kit.cheat_firmware import modified_firmware, withhold_env
from fathom_host.emulator.drive import finished, play_out
from test_group_cheat_e2e import close, form, journal_when

REVEAL_MS = 8000
P3_SAYS = "P2, or the host P1 that relays it, did not reveal: not verified"
P2_SAYS = "P3 did not receive my reveal from the host P1 (or the host kept its receipt)"


def limit(u):
    return {"FATHOM_REVEAL_MS": str(REVEAL_MS)}


def one_run(tmp_path, seed, cheat=True):
    fw = modified_firmware(tmp_path / "modified") if cheat else None

    def env(u):
        e = limit(u)
        if cheat:
            e.update(withhold_env(u, fw, 1, 2))
        return e
    ether, emu = form(tmp_path / "game", seed, env, partner_env=limit)
    host, p2, p3 = emu.units
    try:
        results, _reports = play_out(emu.units, timeout=400)
        if not cheat:
            for u, lines in zip(emu.units, results):
                assert finished(u) and lines[3:] == ["verified", "RIGHT: Replay"], (u.index, lines)
            return
        assert "cheat: P2's reveal withheld from P3" in host.console()
        assert P3_SAYS in results[2], results[2]
        assert "P2" not in " ".join(l for l in results[2] if l != P3_SAYS)
        c = p2.wait(lambda c: P2_SAYS in c.text, REVEAL_MS / 1000 + 60, "P2 naming the host")
        assert "verified" in c.text, c.text  # P2 had everyone's reveal itself
        journal_when(p3, lambda recs: ["v", 1, "withheld"] in recs, "P3's journalled finding")
        journal_when(p2, lambda recs: ["g", 2, False] in recs, "P2's journalled finding")
        for u in emu.units:
            assert "Traceback" not in u.console(), (u.index, u.console()[-3000:])
        return results[2], c.text
    finally:
        close(ether, emu)


@pytest.mark.slow
def test_a_host_withholding_a_reveal_is_named_on_both_partners(tmp_path):
    p3, p2 = one_run(tmp_path, 43)
    print("P3: %r\nP2: %r" % (p3, p2))


@pytest.mark.bench
@pytest.mark.timeout(1800)  # eleven whole group games
def test_ten_runs_of_the_withholding_host_are_named_and_the_control_ends_verified(tmp_path):
    for k in range(10):
        one_run(tmp_path / ("run%d" % k), 100 + k)
        print("run %d of 10: the host was named on P2 and P3" % (k + 1))
    one_run(tmp_path / "control", 100, cheat=False)
    print("control: verified on every unit")
