# Lake Ashtapada on two emulated units through their keys, over the emulated ESP-NOW and over
# the UART cable: both end at the same verified result, and no frame a unit sends carries one
# of its mines before the rules reveal it.
import pytest

from fathom.codec import encode
from savefile import read_game
from fathom_host.drive import pair, pair_uart, play_through_keys
from fathom_host.ether import Ether
from fathom_host.units import Emulator

pytestmark = pytest.mark.slow


def charges_first(cursor, labels, lines):
    """Depth charges end a game quickly (a second miss loses); otherwise what is highlighted."""
    for i, label in enumerate(labels):
        if label.startswith("depth"):
            return i
    return cursor


def saved(tmp_path, unit):
    return read_game(tmp_path / ("unit%d" % unit) / "data" / "game")


def secrecy(ether, tmp_path, unit):
    """Before the frame carrying its reveal (found by its salt), no frame from `unit` holds the
    encoding of one of its mine placements, unless the log shows the rules revealed it."""
    seat = saved(tmp_path, unit)["seat"]
    mines = [c[1] for c in seat["setup"] if c[0] == "mine"]
    assert mines
    revealed = set(e[1] for a, e in seat["log"] if a == unit and e[0] in ("mine", "hit"))
    salt = seat["salt"]
    frames = ether.sent_by(unit)
    reveal_at = min([f.t for f in frames if salt[:8] in f.data or salt[8:] in f.data]
                    or [float("inf")])
    assert reveal_at != float("inf"), "the reveal never went out"
    for f in frames:
        if f.t >= reveal_at:
            continue
        for sq in mines:
            if sq not in revealed:
                assert encode(["mine", sq]) not in f.data, "mine %d left unit %d early" % (
                    sq, unit)
    # the control: once revealed, the placements are visible to this very search
    assert any(encode(["mine", sq]) in f.data for f in frames if f.t >= reveal_at
               for sq in mines)
    return len(frames)


@pytest.mark.parametrize("link", ["espnow", "uart"])
def test_two_units_play_lake_ashtapada_through_their_keys(tmp_path, link):
    ether = Ether(seed=11)
    ether.start()
    try:
        with Emulator(2, workdir=tmp_path, ether=ether, env={"FATHOM_LINK": link}) as emu:
            units = emu.units
            (pair if link == "espnow" else pair_uart)(units, "Lake Ashtapada")
            results, moves = play_through_keys(units, picks=[charges_first] * 2, timeout=240)
            for r in results:
                assert r[0] == "Result" and "verified" in r, r
            assert results[0][2] == results[1][2]  # the same reason on both units
            assert sorted(r[1] for r in results) in (["You lose", "You win"], ["Draw", "Draw"])
            assert moves > 6
            for unit in (0, 1):
                assert secrecy(ether, tmp_path, unit) > 5
    finally:
        ether.stop()


def test_the_second_session_with_a_paired_unit_is_encrypted_by_the_radio(tmp_path):
    """First pairing in clear (Diffie-Hellman, code); the next session uses ESP-NOW's own
    encryption with the pairing's LMK on top of the channel's HMAC, and the game still runs."""
    ether = Ether(seed=12)
    ether.start()
    try:
        with Emulator(2, workdir=tmp_path, ether=ether) as emu:
            units = emu.units
            pair(units, "Lake Ashtapada")
            play_through_keys(units, picks=[charges_first] * 2, timeout=240)
            first = [f for f in ether.capture if f.dst != "*"]
            assert first and not any(f.enc for f in first)
            for u in units:
                u.press("OK")  # leave the result
                u.wait_text("Companion")
            ether.clear_capture()
            for u in units:  # a stored pairing: no code to compare this time
                u.choose("Lake Ashtapada")
                u.choose("vs other unit")
            for u in units:
                u.wait_text("Choose a unit", 30)
            for u in units:
                u.press("OK")
            results, _ = play_through_keys(units, picks=[charges_first] * 2, timeout=240)
            assert all("verified" in r for r in results)
            second = [f for f in ether.capture if f.dst != "*"]
            assert second and all(f.enc for f in second)
    finally:
        ether.stop()


def test_a_unit_that_forgot_the_pairing_pairs_again_in_clear(tmp_path):
    ether = Ether(seed=13)
    ether.start()
    try:
        with Emulator(2, workdir=tmp_path, ether=ether) as emu:
            a, b = emu.units
            pair([a, b], "Lake Ashtapada")
            play_through_keys([a, b], picks=[charges_first] * 2, timeout=240)
            for u in (a, b):
                u.press("OK")
                u.wait_text("Companion")
            b.choose("Settings")
            b.choose("Forget pair")
            b.wait_text("Pairing forgotten")
            b.press("OK")
            b.press("BACK")
            pair([a, b], "Lake Ashtapada")  # a tries its key, sees b forgot, both compare a code
            results, _ = play_through_keys([a, b], picks=[charges_first] * 2, timeout=240)
            assert all("verified" in r for r in results)
    finally:
        ether.stop()
