# Lake Ashtapada end to end on two emulated units, played through their keys: once over ESP-NOW
# and once over the UART cable, each ending at the same verified result on both units. Every
# frame each unit put on the air or the cable is then searched for its mines: none may carry
# them before the end-of-game reveal (except the one mine the rules reveal when a boat strikes
# it, and only in that answer).
import random
import time

import pytest

from e2e_driver import near_random, pair, pair_uart, play_through_keys
from fathom import codec
from fathom.bots.ashtapada import SharpBot
from fathom.games import ashtapada as A
from fathom.games.seat import restore
from fathom.hal.storage import unpack
from fathom.link import frame
from fathom.link.uartframe import Deframer
from fathom_host.ether import Ether
from fathom_host.units import Emulator

pytestmark = pytest.mark.slow

TITLE = "Lake Ashtapada"
# A small lake and few mines keep a game of two SharpBots near 25 turns.
OPTIONS = (("Lake", "8"), ("Mines", "3"), ("Islands", "1"), ("Draw after", "40"))
SIZE = 8
GAME_TIMEOUT_S = 240


# ---- reading a unit's save (the test's eyes into its own seat, never the other unit's) -----
def read_save(unit, tries=40):
    path = unit.dir / "data" / "game"
    for _ in range(tries):
        try:
            body = unpack(path.read_bytes())
        except OSError:
            body = None
        if body is not None:
            return codec.decode(body)
        time.sleep(0.05)  # a write in progress: the rename lands in a moment
    raise AssertionError("unit %d: no readable save at %s" % (unit.index, path))


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


class Player:
    """A pick policy for the driver: near-random set-up choices (few key presses), then the
    fair SharpBot on a replica of this unit's own seat, rebuilt from the unit's save. The
    replica must list exactly the labels the screen lists, or the save is re-read."""

    def __init__(self, unit, seed):
        self.unit = unit
        self.rng = random.Random(seed)
        self.near = near_random(self.rng)
        self.bot = None
        self.moves = 0

    def __call__(self, cursor, labels, lines):
        if labels[0].startswith(("island ", "mine ")):
            return self.near(cursor, labels, lines)
        for _ in range(60):
            seat = restore(A.ENGINE, read_save(self.unit)["seat"])
            eng = seat.engine
            legal = seat.legal()
            if sorted(eng.label(seat.pub, seat.priv, seat.player, a) for a in legal) == \
                    sorted(labels):
                break
            time.sleep(0.05)
        else:
            raise AssertionError("unit %d: screen and save disagree" % self.unit.index)
        if self.bot is None:
            self.bot = SharpBot(bytes([self.unit.index + 1]) * 16, seat.player)
        self.moves += 1
        return labels.index(eng.label(seat.pub, seat.priv, seat.player, self.bot.act(seat)))


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
    rev = b"\xc3\x83rev" + bytes([0x40 | player])  # codec of ["rev", player, ...]
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
                      and codec.decode(m) == ["ev", len(log) - 1, player, ["mine", struck],
                                              codec.decode(m)[4]])
                assert ok, "unit %d message %d carries its mines before the reveal: %r" % (
                    unit.index, i, codec.decode(m) if m[:1] == b"\xc5" else m)
    for sq in mines:
        assert codec.encode(["mine", sq]) in reveal  # positive control: the search works
    return len(before)


def finish(units, seed):
    players = [Player(u, seed * 10 + u.index) for u in units]
    t0 = time.monotonic()
    texts, presses = play_through_keys(units, seed, picks=players, timeout=GAME_TIMEOUT_S)
    took = time.monotonic() - t0
    for t in texts:
        assert t[0] == "Result" and t[3] == "verified", texts
    assert texts[0][2] == texts[1][2], texts  # the same reason on both
    heads = sorted(t[1] for t in texts)
    assert heads in (["Draw", "Draw"], ["You lose", "You win"]), texts
    return texts, took, sum(p.moves for p in players)


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
    emu = Emulator(2, workdir=tmp_path, ether=ether, env=env)
    t0 = time.monotonic()
    try:
        emu.start()
        units = emu.units
        for u in units:
            set_options(u)
        do_pair(units, TITLE)
        accept_offers(units)
        texts, took, actions = finish(units, seed)
        counted = check_all_frames(ether, units)
        assert counted > 10
        print("\n%s game: %d actions, play %.1f s, whole test %.1f s, result %s" % (
            env.get("FATHOM_LINK", "espnow"), actions, took, time.monotonic() - t0, texts[0]))
    finally:
        emu.close()
        ether.stop()


def test_espnow_game_through_keys_ends_verified_and_no_frame_leaks_mines(tmp_path):
    run_game(tmp_path, {}, 3, pair)


def test_uart_game_through_keys_ends_verified_and_no_frame_leaks_mines(tmp_path):
    run_game(tmp_path, {"FATHOM_LINK": "uart"}, 4, pair_uart)
