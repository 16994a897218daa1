# Every `fathom bench` that `make bench` runs (`bench all`: boot, link, turn, bots, soak), in its
# fast form (--fast): a bench that raises, loses a figure or reports a zero where the figure
# cannot be zero fails here the day it rots, not the day someone next reads its figures. The
# figures themselves are the benches' to report; nothing here asserts a budget. The benches
# outside `bench all` are held in the same form by their own tests: device by
# device/test_device_budget.py, deal by bench/test_dealbench.py, ux by bench/test_uxbench_e2e.py,
# power by bench/test_powerbench.py.

import pytest

from fathom_host import FathomError, bench
from fathom_host.bench import FAST_GAMES, soak

pytestmark = pytest.mark.slow


def run(what, *options):
    """The bench as `fathom bench WHAT --fast --json OPTIONS...` runs it."""
    return bench.collect(bench.parse([what, "--fast", "--json"] + list(options)))


def positive(row, *keys):
    assert "error" not in row, row
    for k in keys:
        assert k in row, (k, row)
        assert row[k] > 0, (k, row)


def test_bench_boot_fast():
    out = run("boot")
    positive(out, "boot_s", "heap_bytes", "heap_game_bytes", "key_to_panel_ms_median",
             "key_to_panel_ms_max", "i2c_bytes_cursor_move")


def test_bench_link_fast():
    from fathom_host.bench.link import FAST_N, LINKS, LOSSES
    out = run("link")
    assert out["messages_each_way"] == FAST_N
    for kind in LINKS:
        for loss in LOSSES:
            row = out["%s_loss%d" % (kind, round(loss * 100))]
            positive(row, "msgs_per_s", "frames_per_msg", "bytes_per_msg", "wire_bytes_per_msg")
            assert row["ok"] and row["delivered"] == 2 * FAST_N, row
            assert row["frames_per_msg"] >= 1
            if loss:
                assert row["retransmits"] > 0, row


def test_bench_turn_fast_pairs_on_both_links():
    from fathom_host.bench.turn import two_player_games
    out = run("turn", "--loss", "0.1")
    gid = two_player_games()[0]
    assert sorted(out) == ["%s_espnow_loss10" % gid, "%s_uart_loss10" % gid], sorted(out)
    for row in out.values():
        positive(row, "turns", "press_to_other_panel_ms_median", "press_to_other_panel_ms_p90",
                 "press_to_other_panel_ms_max", "frames_per_turn_median",
                 "bytes_per_turn_median")
        assert row["press_to_other_panel_ms_median"] <= row["press_to_other_panel_ms_p90"] \
            <= row["press_to_other_panel_ms_max"]
        assert row["asked_to_pin_down_ms_median"] >= 0, row  # timed from the pin, not the ask


def test_bench_turn_rejects_a_loss_it_cannot_set(capsys):
    with pytest.raises(FathomError, match="--loss"):
        run("turn", "--loss", "lots")
    with pytest.raises(SystemExit):   # link measures its own losses: the option is not its
        bench.parse(["link", "--loss", "0.1"])
    assert "unrecognized arguments: --loss 0.1" in capsys.readouterr().err


def test_bench_bots_fast_pits_the_levels_and_times_each():
    from fathom_host import use_firmware
    use_firmware()
    from fathom import games
    from fathom.games.bots import LEVELS
    out = run("bots")
    assert sorted(out) == sorted(g for g in games.IDS if games.has(g, "bot"))
    for gid, row in out.items():
        n = row["games"]
        assert n == 2 * FAST_GAMES   # one game with each level in each seat
        if games.engine(gid).COOPERATIVE:
            assert sorted(row["partner"]) == sorted(LEVELS)
            for r in row["partner"].values():
                assert r["games"] == n and 0 <= r["goals"] <= n, (gid, r)
        else:
            assert sorted(row["pairs"]) == ["hard/sharp", "sharp/easy"]
            for r in row["pairs"].values():
                assert r["games"] == n == sum(r["wins"]) + r["draws"], (gid, r)
        assert sorted(row["levels"]) == sorted(LEVELS), (gid, row["levels"])
        for t in row["levels"].values():
            positive(t, "games", "moves", "worst_ms", "esp32_worst_ms")
            assert 0 <= t["median_ms"] <= t["worst_ms"], t
            assert 0 < t["esp32_median_ms"], t


def test_bench_bots_first_plays_a_later_seed_set(monkeypatch):
    """--first 200: the games a second seed set plays are seeds 200.., the bench's figures
    over 0-199 checked on games it never tuned on."""
    from fathom_host.bench import bots
    seen = []
    real = bots._seed
    monkeypatch.setattr(bots, "_seed", lambda gid, i: seen.append(i) or real(gid, i))
    out = run("bots", "--game", "periplus", "--pairs", "sharp/easy", "--first", "200",
              "--timed", "0")
    row = out["periplus"]
    assert row["first_seed"] == 200 and "levels" not in row
    assert seen == list(range(200, 200 + row["games"])), seen
    assert row["pairs"]["sharp/easy"]["games"] == row["games"]


def test_bench_soak_fast_completes_every_game():
    out = run("soak")
    assert sorted(out) == ["%s_%s" % (g, link) for g, _n, link in soak.fast_plan()]
    for key, row in out.items():
        assert row["completed"] == row["games"] == FAST_GAMES, (key, row)
        assert row["desyncs"] == row["audit_failures"] == row["crashes"] == 0, (key, row)
        positive(row, "frames", "bytes", "retransmits", "wall_s")
