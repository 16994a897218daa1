# Lake Ashtapada end to end on two emulated units, paired through their keys and played through
# their keys by each unit's own scripted player (a sharp bot decides, the screen's keys_for says
# which keys): once over ESP-NOW and once over the UART cable, each ending at the same verified
# result on both units. Every frame each unit put on the air or the cable is then searched for
# its mines: none may carry them before the end-of-game reveal (except the one mine the rules
# reveal when a boat strikes it, and only in that answer). Then the pairing across games: a second session with a paired
# unit is encrypted by the radio, and a unit that forgot the pairing pairs again in clear.
import time

import pytest

from fathom_host.emulator.drive import pair, pair_uart, play_out, player_env, release
from fathom import codec
from fathom.games.ashtapada import engine as A
from hostmodes.seatcopy import restore
from kit.savefile import wait_game
from fathom.link import frame
from fathom.link.uartframe import Deframer
from fathom_host.emulator.ether import Ether
from fathom_host.emulator.units import Emulator

TITLE = "Lake Ashtapada"
# A small lake and few mines keep the game short.
OPTIONS = (("Lake", "8"), ("Mines", "3"), ("Islands", "1"), ("Draw after", "40"))
SIZE = 8
GAME_TIMEOUT_S = 300
SAVE_WAIT_S = 30    # a bound on a failure: a loaded host can be slow to write the first record


def read_save(unit):
    """The unit's own save: the test's eyes into its seat, never the other unit's."""
    return wait_game(unit.dir, SAVE_WAIT_S)


def set_options(unit):
    unit.choose(TITLE)
    for label, value in OPTIONS:
        unit.choose(label)
        for _ in range(6):
            if unit.selected() == "%s: %s" % (label, value):
                break
            unit.press("OK")
        assert unit.selected() == "%s: %s" % (label, value), unit.text
    unit.press("BACK")
    unit.wait_text("Settings")


def accept_offers(units, timeout=30):
    """Wait for the game screen on every unit, accepting a partner's offer if one is shown."""
    end = time.monotonic() + timeout
    while True:
        texts = [u.text for u in units]
        if all(t and t[0].startswith(TITLE) for t in texts):
            return
        for u, t in zip(units, texts):
            if any("OK accept" in line for line in t):
                u.press("OK")
        assert time.monotonic() < end, "no game screen:\n%s" % "\n\n".join(
            "\n".join(t) for t in texts)
        time.sleep(0.1)


def framed_square(screen, least):
    """(x0, y0, x1, y1) of a rectangle outlined on the panel at least `least` pixels each way
    (the lake's frame), or None: the generic list screen draws none."""
    rows = screen.rows()
    h, w = len(rows), len(rows[0])
    for y in range(h):
        for x in range(w):
            if not rows[y][x]:
                continue
            x1 = x
            while x1 + 1 < w and rows[y][x1 + 1]:
                x1 += 1
            y1 = y
            while y1 + 1 < h and rows[y1 + 1][x]:
                y1 += 1
            if x1 - x + 1 < least or y1 - y + 1 < least:
                continue
            if all(rows[y1][xx] for xx in range(x, x1 + 1)) and all(
                    rows[yy][x1] for yy in range(y, y1 + 1)):
                return x, y, x1, y1
    return None


# ---- frames ----------------------------------------------------------------------------------
def frames_sent(ether, unit):
    """Every frame the unit put on the air or the cable, in order (UART bytes deframed)."""
    out = []
    deframer = Deframer()
    for rec in ether.sent_by(unit):
        if rec.link == "uart":
            out.extend(deframer.feed(bytes(rec.data)))
        else:
            out.append(bytes(rec.data))
    return out


def messages_sent(ether, unit):
    """The channel messages in those frames, reassembled, retransmissions dropped."""
    seen = set()
    part = {}
    msgs = []
    for data in frames_sent(ether, unit):
        try:
            ftype, keyed, sid, seq, _ack, payload = frame.parse(data)
        except frame.FrameError:
            continue
        if ftype not in (frame.DATA, frame.MORE):
            continue
        key = (keyed, sid, seq)
        if key in seen:
            continue
        seen.add(key)
        buf = part.setdefault((keyed, sid), bytearray())
        buf.extend(payload)
        if ftype == frame.DATA:
            msgs.append(bytes(buf))
            del part[(keyed, sid)]
    return msgs


def check_secrecy(ether, unit, player, mines, log, result):
    """No message before `unit`'s reveal carries its mines; the reveal itself does (so the
    search can see them at all)."""
    msgs = messages_sent(ether, unit.index)
    rev = b"\xc5\x83rev" + bytes([0x40 | player])  # codec of ["rev", player, salt, setup, n]
    at = [i for i, m in enumerate(msgs) if m.startswith(rev)]
    assert at, "unit %d: no reveal among %d messages" % (unit.index, len(msgs))
    before, reveal = msgs[:at[0]], msgs[at[0]]
    struck = None
    if result[1] == A.WON_STRUCK and log[-1][0] == player and log[-1][1][0] == "mine":
        struck = log[-1][1][1]  # the rules reveal this one mine, in the final answer
    needles = [codec.encode(mines), codec.encode(sorted(mines))]
    for sq in mines:
        needles.append(codec.encode(["mine", sq]))
    for i, m in enumerate(before):
        for nd in needles:
            if nd in m:
                ok = (struck is not None and nd == codec.encode(["mine", struck])
                      and codec.decode(m)[:4] == ["ev", len(log) - 1, player, ["mine", struck]])
                assert ok, "unit %d message %d carries its mines before the reveal: %r" % (
                    unit.index, i, codec.decode(m) if m[:1] == b"\xc5" else m)
    for sq in mines:
        assert codec.encode(["mine", sq]) in reveal  # positive control: the search works
    return len(before)


def finish(units):
    t0 = time.monotonic()
    texts, reports = play_out(units, timeout=GAME_TIMEOUT_S)
    took = time.monotonic() - t0
    for t in texts:
        assert t[0] == "Result" and t[3] == "verified", texts
    assert texts[0][2] == texts[1][2], texts  # the same reason on both
    heads = sorted(t[1] for t in texts)
    assert heads in (["Draw", "Draw"], ["You lose", "You win"]), texts
    return texts, took, [k for r in reports for k in r["presses"]]


def check_all_frames(ether, units):
    saves = [read_save(u) for u in units]
    counted = 0
    for i, u in enumerate(units):
        mine, other = saves[i], saves[1 - i]
        player = mine["seat"]["player"]
        reveal = other["reveals"][player]  # what the other unit received at the end
        mines = [c[1] for c in reveal[1] if c[0] == "mine"]
        own = [c[1] for c in mine["seat"]["setup"] if c[0] == "mine"]
        assert mines == own and len(mines) == 3
        log = [tuple(x) for x in mine["seat"]["log"]]
        seat = restore(A.ENGINE, mine["seat"])
        counted += check_secrecy(ether, u, player, mines, log, seat.result())
    return counted


def run_game(tmp_path, env, seed, do_pair):
    ether = Ether(seed=seed).start()
    env = dict(env, **player_env(hold=True))
    emu = Emulator(2, workdir=tmp_path, ether=ether, env=env)
    t0 = time.monotonic()
    try:
        emu.start()
        units = emu.units
        for u in units:
            set_options(u)
        do_pair(units, TITLE)
        accept_offers(units)
        for u in units:  # the lake's frame: this game's own screen, not the generic list
            u.wait(lambda c: framed_square(c.screen, SIZE * 4) is not None, 10,
                   "unit %d's lake" % u.index)
        release(units)
        texts, took, presses = finish(units)
        counted = check_all_frames(ether, units)
        assert counted > 10
        print("\n%s game: %d actions, %d key presses, play %.1f s, whole test %.1f s, %s" % (
            env.get("FATHOM_LINK", "espnow"), len(presses), sum(presses), took,
            time.monotonic() - t0, texts[0]))
    finally:
        emu.close()
        ether.stop()


@pytest.mark.slow
def test_espnow_game_through_keys_ends_verified_and_no_frame_leaks_mines(tmp_path):
    run_game(tmp_path, {}, 3, pair)


@pytest.mark.slow
def test_uart_game_through_keys_ends_verified_and_no_frame_leaks_mines(tmp_path):
    run_game(tmp_path, {"FATHOM_LINK": "uart"}, 4, pair_uart)


# ---- the pairing across games --------------------------------------------------------------
def play_small_lake(tmp_path, seed, body):
    """Two units with their scripted players held (the test pairs and leaves the first game
    through the keys; release() lets them play), the small lake set on both."""
    ether = Ether(seed=seed)
    ether.start()
    try:
        with Emulator(2, workdir=tmp_path, ether=ether, env=player_env(hold=True)) as emu:
            for u in emu.units:
                set_options(u)
            body(ether, emu.units)
    finally:
        ether.stop()


def pair_and_leave(units):
    """A first session that ends as soon as the game is on: pair (a code on both screens),
    then each unit pauses and leaves the game, kept (Leave (keep)), back to its home menu."""
    pair(units, TITLE)
    for u in units:
        u.wait(lambda c: c.text and c.text[0].startswith(TITLE), 60, "the game screen")
    for u in units:  # both paused first: the bye of the first to leave is acknowledged
        u.press("BACK")
        u.wait_text("Paused", 10)
    for u in units:  # the second's bye goes unheard: it leaves after LEAVE_MS (3 s)
        u.choose("Leave (keep)")
        u.wait_text("Companion", 30)


def pair_again(units):
    """The next session, from the home menu: a new game over the kept one, no code to
    compare (the stored pairing)."""
    for u in units:
        u.choose(TITLE)
        assert u.selected() == "Resume game", u.text  # the first game is kept...
        u.choose("vs other unit")                     # ...and a new one is proposed
    for u in units:
        u.wait_text("Choose a unit", 30)
    for u in units:
        u.press("OK")


@pytest.mark.slow
def test_the_second_session_with_a_paired_unit_is_encrypted_by_the_radio(tmp_path):
    """First pairing in clear (Diffie-Hellman, code); the next session uses ESP-NOW's own
    encryption with the pairing's LMK on top of the channel's HMAC, and the game still runs
    to its verified end."""
    def body(ether, units):
        pair_and_leave(units)
        first = [f for f in ether.capture if f.dst != "*"]
        assert first and not any(f.enc for f in first)
        ether.clear_capture()
        release(units)
        pair_again(units)
        results, _ = play_out(units, timeout=GAME_TIMEOUT_S)
        assert all("verified" in r for r in results), results
        second = [f for f in ether.capture if f.dst != "*"]
        assert second and all(f.enc for f in second)
    play_small_lake(tmp_path, 12, body)


@pytest.mark.bench  # a whole game and the pairing's fallback: the soak tier (make bench)
def test_a_unit_that_forgot_the_pairing_pairs_again_in_clear(tmp_path):
    def body(ether, units):
        a, b = units
        pair_and_leave([a, b])
        b.choose("Settings")
        b.choose("Forget pair")
        b.wait_text("Pairing forgotten")
        b.press("OK")
        b.press("BACK")
        ether.clear_capture()
        release([a, b])
        pair([a, b], TITLE)  # a tries its key, sees b forgot, both compare a code
        results, _ = play_out([a, b], timeout=GAME_TIMEOUT_S)
        assert all("verified" in r for r in results), results
        again = [f for f in ether.capture if f.dst != "*"]
        assert again and not all(f.enc for f in again)  # the new pairing's start is in clear
    play_small_lake(tmp_path, 13, body)


# ---- the secrecy check itself, on made-up captures (fast) ------------------------------------
class _Rec:
    def __init__(self, link, data):
        self.link = link
        self.data = data


class _FakeEther:
    def __init__(self, msgs, link="espnow"):
        from fathom.link.uartframe import wrap
        self.recs = []
        for seq, m in enumerate(msgs):
            f = frame.encode(frame.DATA, 7, seq, 0, codec.encode(m))
            if link == "uart":
                w = wrap(f)
                self.recs += [_Rec("uart", w[:5]), _Rec("uart", w[5:])]  # split mid-frame
            else:
                self.recs += [_Rec("espnow", f), _Rec("espnow", f)]  # a retransmission

    def sent_by(self, unit):
        return self.recs


class _U:
    index = 0


H = b"h" * 8
MINES = [5, 9, 20]
LOG = [(0, ["setup", [], b"c" * 32]), (1, ["setup", [], b"d" * 32]), (1, ["move", [9]]),
       (0, ["mine", 9])]
REVEAL = ["rev", 0, b"salt", [["mine", s] for s in MINES], 0]


@pytest.mark.parametrize("link", ["espnow", "uart"])
def test_secrecy_check_passes_a_clean_capture_and_allows_the_struck_mine(link):
    msgs = [["ev", 0, 0, LOG[0][1], H], ["ev", 3, 0, ["mine", 9], H], REVEAL]
    got = check_secrecy(_FakeEther(msgs, link), _U(), 0, MINES, LOG, ([1], A.WON_STRUCK))
    assert got == 2


@pytest.mark.parametrize("leak", [["ev", 1, 0, ["mine", 20], H], ["dbg", MINES],
                                  ["ev", 3, 0, ["mine", 9], H]])
def test_secrecy_check_finds_a_leaked_mine(leak):
    msgs = [["ev", 0, 0, LOG[0][1], H], leak, REVEAL]
    result = ([1], A.WON_MINES)  # nobody struck a mine: even the answer form is a leak
    with pytest.raises(AssertionError, match="carries its mines"):
        check_secrecy(_FakeEther(msgs), _U(), 0, MINES, LOG, result)


def test_secrecy_check_needs_the_reveal_in_the_capture():
    with pytest.raises(AssertionError, match="no reveal"):
        check_secrecy(_FakeEther([["ev", 0, 0, LOG[0][1], H]]), _U(), 0, MINES, LOG,
                      ([1], A.WON_MINES))
