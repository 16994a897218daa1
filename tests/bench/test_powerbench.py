# `fathom bench power` in its fast form: two emulated units report their loop's work at the home
# menu, on the player's own turn and waiting for the partner, and every board gets its states'
# currents and hours. One behaviour with generous headroom: an idle loop sleeps until its next
# step is due (it turned 100 times a second, and stepped on one turn in fifty, before it did).
import pytest

from fathom_host import bench

pytestmark = pytest.mark.slow

STATES = ("home_idle", "own_turn", "waiting", "panel_dimmed", "panel_off", "deep_sleep")


def test_bench_power_fast_reports_every_state_of_every_board():
    out = bench.collect(bench.parse(["power", "--fast", "--json"]))
    assert "error" not in out, out
    for state in ("home_idle", "own_turn", "waiting"):
        row = out["cpu"][state]
        assert 0 < row["steps_per_s"] <= 15, row      # it rests between steps...
        assert row["loops_per_s"] <= 20, row          # ...asleep, not turning to look
        assert row["rest_check_ms_per_s"] > 0, row    # the sleep's own checks are counted
    for board in ("esp32_devkit_ssd1306", "heltec_wifi_kit_32_v3", "esp32c3_oled_72x40",
                  "lolin32_oled"):
        rows = out[board]
        assert set(rows) == set(STATES)
        for state in STATES:
            assert rows[state]["hours_1000mah"] > 0
        assert rows["panel_off"]["ma"] < rows["panel_dimmed"]["ma"] < rows["waiting"]["ma"]
        assert rows["deep_sleep"]["ma"] < 1 and rows["deep_sleep"]["radio_share_pct"] == 0
    assert "host" not in out


def test_a_resting_unit_answers_a_frame_on_either_link_at_once():
    # The partner sleeps until its next step is due; a frame ends that sleep (the radio's irq,
    # the UART's bytes through select.poll), so a press still reaches its panel in a loop or
    # two (about 25 ms here on both links), not at the partner's next heartbeat (up to 1 s:
    # a median of 384 ms when the UART's port was registered with a module shed at home).
    from fathom_host.bench.turn import two_player_games
    gid = two_player_games()[0]
    out = bench.collect(bench.parse(["turn", "--fast", "--json", "--game", gid]))
    for link in ("espnow", "uart"):
        row = out["%s_%s_loss0" % (gid, link)]
        assert row["press_to_other_panel_ms_median"] < 200, row


def test_a_resting_panels_80_mhz_clock_is_counted_where_a_datasheet_gives_its_current():
    # A lit ESP32 runs at its profile's 240 MHz (the clock bench path's factor is for), and
    # hal/speed.py slows it to 80 MHz while the panel rests: the ESP32's modem-sleep current at
    # 80 MHz (20-31 mA against 30-68 at 240) makes its dimmed and dark states cheaper than the
    # panel alone would, even with the same work taking three times the CPU time.
    import json
    from fathom_host.bench import power
    cpu = {s: {"esp32_cpu_duty_pct": 2.8} for s in ("home_idle", "own_turn", "waiting")}
    p = json.loads((power.BOARDS / "esp32_devkit_ssd1306.json").read_text())
    rows = power._board(p, cpu)
    assert rows["waiting"]["cpu_mhz"] == 240 and rows["panel_dimmed"]["cpu_mhz"] == 80
    assert rows["waiting"]["cpu_duty_pct"] == pytest.approx(2.8)
    assert rows["panel_dimmed"]["cpu_duty_pct"] == pytest.approx(8.4)
    panel_only = power.PANEL_MA["on"] - power.PANEL_MA["dim"]
    assert rows["waiting"]["ma"] - rows["panel_dimmed"]["ma"] > panel_only + 5
    c3 = json.loads((power.BOARDS / "esp32c3_oled_72x40.json").read_text())
    rows = power._board(c3, cpu)   # lit at its top 160 MHz: the same work takes 1.5x the time;
    assert rows["waiting"]["cpu_mhz"] == 160    # no 80 MHz figure taken: rests at 160 too
    assert rows["waiting"]["cpu_duty_pct"] == pytest.approx(4.2)
    assert rows["panel_dimmed"]["cpu_mhz"] == 160
    assert rows["panel_dimmed"]["cpu_duty_pct"] == rows["waiting"]["cpu_duty_pct"]
    typical, bad = power.wake_ms()
    assert typical < bad <= 150   # the waking key still reaches the panel promptly
