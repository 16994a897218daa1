# The replay on an emulated unit: a game against the in-unit bot played through the keys to its
# verified end, **Replay** opened with RIGHT on the result, stepped with RIGHT; then `fathom
# replay` on the unit's storage folder gives, step for step, the panel the unit showed.
import pytest

from fathom_host.emulator.drive import play_out, player_env
from fathom_host.emulator.units import Emulator
from fathom_host.replay import steps

from kit.e2e import verified

pytestmark = pytest.mark.slow

SHOWN = 6   # steps looked at on the unit


def test_the_units_replay_and_fathom_replay_show_the_same_panel(tmp_path):
    with Emulator(1, workdir=tmp_path, env=player_env()) as emu:
        u = emu.units[0]
        u.choose("Sugar Dog")
        u.choose("vs bot: sharp")
        results, _reports = play_out([u], timeout=300)
        assert verified(results[0]), results[0]
        assert "RIGHT: Replay" in u.text, u.text
        u.press("RIGHT")
        panels = [u.screen.data]
        assert u.text[0].startswith("Replay 0/"), u.text
        for k in range(1, SHOWN):
            u.press("RIGHT")
            assert u.text[0].startswith("Replay %d/" % k), u.text
            panels.append(u.screen.data)
        end = int(u.text[0].split("/")[1])
        frames = steps(tmp_path)   # the emulator's folder: its first unit's storage
        assert len(frames) == end + 1
        for k, data in enumerate(panels):
            assert frames[k]["fb"] == data, "step %d differs" % k
        u.press("BACK")
        assert u.text[0] == "Result"
