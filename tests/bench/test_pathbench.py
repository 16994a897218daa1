# `fathom bench path` in its fast form, on the frozen runtime: every game's figures are there and
# positive, and the order the app keeps shows in what each side writes. A move the partner only
# takes in writes nothing before its redraw and one journal append and one channel save after
# it; a move it answers writes both records in one append and one save before it (the answer
# may not leave before they are on file); the author writes its move's record and saves its link.
# A Periplus move is never answered in its own tick: the sealed step it calls for waits for the
# redraw. The figures are at the reference pace, whatever pace the machine ran at.

import pytest

from fathom_host import bench

pytestmark = pytest.mark.slow  # the frozen runtime, built first if it is not there


def test_bench_path_fast():
    out = bench.collect(bench.parse(["path", "--fast", "--json"]))
    from fathom_host.bench.turn import two_player_games
    assert sorted(out) == sorted(two_player_games())
    for gid, row in out.items():
        assert row["moves"] > 0 and row["a_us"] > 0 and row["late_us"] > 0, (gid, row)
        assert row["pystones"] > 1000, (gid, row)
        # the partner's own screen redrawn after each move, timed (not a constant)
        assert 0 < row["redraw_move_us"] <= row["redraw_move_p90_us"], (gid, row)  # the pace met, which the times are scaled by
        assert row["files_b_move"] == [0, 0], (gid, row)
        assert row["files_late"] == [2, 1], (gid, row)
        assert row["files_a"][1] >= 1 and row["files_a"][0] > row["files_a"][1], (gid, row)
        assert 0 < row["esp32_unanswered_typical_ms"] < row["esp32_unanswered_bad_ms"], row
    assert out["pinned_down"]["answered"] == 0  # a co-operative game: nothing hidden to answer
    assert out["periplus"]["answered"] == 0  # its sealed steps wait for the move's redraw
    for gid in ("ashtapada", "ping"):
        row = out[gid]
        if row["answered"]:
            assert row["files_b_answer"] == [2, 1], (gid, row)
            assert 0 < row["esp32_answered_typical_ms"] < row["esp32_answered_bad_ms"], row
    assert out["ashtapada"]["answered"] > 0  # every sounding is answered by a ping


def test_the_estimate_counts_the_partners_measured_redraw():
    # the redraw term is the move's own screen's time (typical its median, bad its 90th
    # percentile) at the CPU factor, not a constant a home menu's cursor move gave
    from fathom_host.bench import path
    row = {"a_us": 300, "b_move_us": 150, "b_answer_us": None, "files_a": [2, 1],
           "files_b_move": [0, 0], "files_b_answer": None, "redraw_move_us": 500,
           "redraw_move_p90_us": 900, "redraw_answer_us": None, "redraw_answer_p90_us": None}
    slow = dict(row, redraw_move_us=1500, redraw_move_p90_us=1900)
    a, b = path.estimate(row), path.estimate(slow)
    assert b["esp32_unanswered_typical_ms"] - a["esp32_unanswered_typical_ms"] == \
        path.FACTOR[0]
    assert b["esp32_unanswered_bad_ms"] - a["esp32_unanswered_bad_ms"] == path.FACTOR[1]
    assert "esp32_answered_typical_ms" not in a
