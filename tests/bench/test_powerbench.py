# `fathom bench power` in its fast form: two emulated units report their loop's work at the home
# menu, on the player's own turn and waiting for the partner, and every board gets its states'
# currents and hours. One behaviour with generous headroom: an idle loop rests (it took a step
# every loop, 100 a second, before it did).
import pytest

from fathom_host import bench

pytestmark = pytest.mark.slow

STATES = ("home_idle", "own_turn", "waiting", "panel_dimmed", "panel_off", "deep_sleep")


def test_bench_power_fast_reports_every_state_of_every_board():
    out = bench.collect(bench.parse(["power", "--fast", "--json"]))
    assert "error" not in out, out
    for state in ("home_idle", "own_turn", "waiting"):
        row = out["cpu"][state]
        assert row["loops_per_s"] > 20, row           # the loop turns...
        assert 0 < row["steps_per_s"] <= 15, row      # ...but rests between steps
    for board in ("esp32_devkit_ssd1306", "heltec_wifi_kit_32_v3", "esp32c3_oled_72x40",
                  "lolin32_oled"):
        rows = out[board]
        assert set(rows) == set(STATES)
        for state in STATES:
            assert rows[state]["hours_1000mah"] > 0
        assert rows["panel_off"]["ma"] < rows["panel_dimmed"]["ma"] < rows["waiting"]["ma"]
        assert rows["deep_sleep"]["ma"] < 1 and rows["deep_sleep"]["radio_share_pct"] == 0
    assert "host" not in out
