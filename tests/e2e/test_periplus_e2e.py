# Two emulated units play Periplus over the UART cable through their keys, to a verified end; then
# every frame either unit sent is taken apart to show that no card from a hand travelled before
# the event that plays it.
import random
import time

import pytest

from hostmodes import seatcopy
from fathom.codec import decode, encode
from fathom.games.periplus.engine import ENGINE
from fathom.games.periplus import cards as C
from fathom.games.periplus.bot import EasyBot
from fathom.games.local import make_seats, next_author
from fathom.games.seat import SETUP, apply_event, fresh_state, step_kind
from kit.savefile import read_game
from fathom.link import frame
from fathom.link.crypto import Mac
from fathom.link.uartframe import wrap
from fathom.link.uartframe import Deframer
from fathom_host.emulator.ether import Ether
from fathom_host.emulator.units import Emulator

from fathom_host.emulator.drive import pair_uart, play_through_keys

GAME_TIMEOUT_S = 420
# pytest's own bound (300 s in pytest.ini) must come after the game's, whose failure shows the
# screens: a stuck game then says where it stuck instead of dying in a sleep
TEST_TIMEOUT_S = GAME_TIMEOUT_S + 180
CARD_EVENTS = ("discard", "move", "ahead", "fire", "defend")   # event[1] is the card played
EVENT_SHAPES = {"setup": 3, "discard": 2, "move": 4, "ahead": 3, "also": 2, "halt": 1,
                "pass": 1, "fire": 4, "take": 1, "defend": 2, "concede": 1,
                "sk": 2, "ss": 4, "so": 4}   # the sealed deal's: group elements, never a card
HANDSHAKE = ("hi", "pc", "pk", "pr", "ok", "no")
# the session's game agreement and seed commit-reveal: [kind, field types...]
GAME_SETUP = {"gp": (str, dict, bytes), "ga": (bytes,), "gd": (str,), "rv": (bytes,)}


# ---- the policy: what a player in a hurry does, read off the screen's text -----------------
def _sq(name):
    return "abcdefgh".index(name[0]), int(name[1:]) - 1


def _dist(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _presses(cursor, i, n):
    return min((i - cursor) % n, (cursor - i) % n)


def _foe_quinquereme(lines):
    for line in lines:
        if line.startswith("# foe "):
            for part in line[6:].split(", "):
                bits = part.split()
                if len(bits) >= 2 and bits[0] == "Q":
                    return _sq(bits[1])
    return None


def hurry(rng):
    """Attack the enemy Quinquereme when possible, else anything; steer other ships toward it;
    end fleet moves at once; take the default (cursor) everywhere else, which at the defence
    prompt means negating with a Defense card when one is held."""
    def pick(cursor, labels, lines):
        head = lines[0]
        n = len(labels)

        def near(cands):
            return min(cands, key=lambda i: _presses(cursor, i, n)) if cands else cursor
        if " fire" in head:
            qq = [i for i, l in enumerate(labels) if ">Q" in l]
            return near(qq or [i for i, l in enumerate(labels) if not l.startswith("Pass")])
        if " fleet" in head:
            return near([i for i, l in enumerate(labels) if l.startswith("Halt")])
        q = _foe_quinquereme(lines)
        if " move" in head and q is not None:
            best, bv = 0, 0.0
            for i, l in enumerate(labels):
                if ": " not in l or " Q " in l:
                    continue
                a, b = l.split(": ", 1)[1].split()[-1].split(">")
                v = (_dist(_sq(a), q) - _dist(_sq(b), q) - 0.1 * _presses(cursor, i, n)
                     + rng.random() * 0.01)
                if v > bv:
                    best, bv = i, v
            return best
        return cursor
    return pick


# ---- taking the capture apart ------------------------------------------------------------
def messages(capture):
    """Every message each unit sent, as (src, keyed, position of its first frame, decoded
    value), in the order of its channel; each channel's frames deduplicated by sequence."""
    chans = {}          # (src, keyed, sid) -> {seq: (position, ftype, payload)}
    deframers = {}
    for pos, rec in enumerate(capture):
        assert rec.link == "uart", rec
        d = deframers.setdefault(rec.src, Deframer())
        for fr in d.feed(rec.data):
            ftype, keyed, sid, seq, _ack, payload = frame.parse(fr)
            if ftype == frame.ACK:
                continue
            assert ftype in (frame.DATA, frame.MORE), ftype
            got = chans.setdefault((rec.src, keyed, sid), {})
            if seq in got:
                assert got[seq][1:] == (ftype, payload), "a resend differs from the first"
            else:
                got[seq] = (pos, ftype, payload)
    out = []
    for (src, keyed, _sid), frames in chans.items():
        part, first = b"", None
        for seq in sorted(frames):   # 16-bit sequence numbers: a game is far below 65536
            pos, ftype, payload = frames[seq]
            first = pos if first is None else first
            part += payload
            if ftype == frame.DATA:
                out.append((src, keyed, first, decode(part)))
                part, first = b"", None
        assert part == b"", "a message was left unfinished"
    return out


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from strings(k)
            yield from strings(x)


def load_game(unit_dir):
    return read_game(unit_dir / "data" / "game")


def hands_before_each_event(saves):
    """Replay the log with both players' secrets (each save holds its own seat, its salt giving
    a sealed deal's secret): the hand of each event's author just before that event."""
    seed, opts = saves[0]["seat"]["seed"], saves[0]["seat"]["opts"]
    log = saves[0]["seat"]["log"]
    eng = ENGINE.bind(log)   # a sealed deck is read back from the log's shuffle events
    states = []
    for p in (0, 1):
        s = saves[0] if saves[0]["seat"]["player"] == p else saves[1]
        pub, priv = fresh_state(eng, opts, 2, seed, p, bytes(s["seat"]["salt"]))
        for c in s["seat"]["setup"]:
            eng.setup_apply(pub, priv, p, c)
        states.append((pub, priv, {}))
    hands = []
    for author, event in log:
        hands.append(list(states[author][1]["hand"]))
        for p, (pub, priv, setups) in enumerate(states):
            kind = step_kind(eng, pub, author, event, 2, setups)
            if kind == SETUP:
                eng.apply(pub, author, event)
                setups[author] = event[2]
            else:
                apply_event(eng, pub, priv, p, author, event, kind)
    return log, hands


def check_no_card_before_play(capture, saves):
    """Sound for the codec encoding: every field of every message is placed by its schema, and
    card kinds sit only in event[1] of a card-playing event, which must equal that log entry
    and be a card its author held. A card kind anywhere else, or a message of a kind we cannot
    place, fails; so does a reveal (which lists every action) sent before the last event."""
    names = [name for name, *_ in C.CARDS]
    for rec in capture:   # raw bytes: names of 6+ letters cannot turn up in random bytes
        for name in names:
            assert len(name) < 6 or name.encode() not in rec.data, name
    log, hands = hands_before_each_event(saves)
    player_of = [sv["seat"]["player"] for sv in saves]   # saves by unit index
    msgs = messages(capture)
    assert msgs, "nothing captured"
    ev_pos = {}
    cards_played = 0
    rev_at = []          # positions of reveal heads and chunks
    heads = []
    counts = {}
    revealed = {}        # player -> actions revealed so far
    before_game = []     # positions of handshake and game-agreement messages
    for src, keyed, pos, m in msgs:
        assert isinstance(m, list) and m and isinstance(m[0], str), m
        for s in strings(m):
            assert not any(n in s for n in names), s
        kind = m[0]
        me = player_of[src]
        if not keyed:
            assert kind in HANDSHAKE, m
            before_game.append(pos)
        elif kind in GAME_SETUP:
            assert [type(x) for x in m[1:]] == list(GAME_SETUP[kind]), m
            before_game.append(pos)
        elif kind == "ev":
            _, idx, author, event, h, ck = m
            assert author == me and isinstance(h, bytes) and len(h) == 8, m
            assert isinstance(ck, bytes) and len(ck) == 8, m
            assert isinstance(idx, int) and 0 <= idx < len(log), m
            assert isinstance(event, list) and event and event[0] in EVENT_SHAPES, m
            assert encode([author, event]) == encode(list(log[idx])), "frame differs from log"
            assert len(event) == EVENT_SHAPES[event[0]], event
            if event[0] in CARD_EVENTS:
                assert event[1] in hands[idx], (idx, event, hands[idx])
                cards_played += 1
            ev_pos[idx] = pos
        elif kind == "sync":
            assert len(m) == 3 and isinstance(m[1], int) and len(m[2]) == 8, m
        elif kind == "rev":
            assert m[1] == me and len(m) == 5 and isinstance(m[4], int), m
            heads.append(me)
            counts[me] = m[4]
            revealed.setdefault(me, [])
            rev_at.append(pos)
        elif kind == "ra":
            got = revealed.get(me)
            assert m[1] == me and len(m) == 4 and got is not None and m[2] <= len(got), m
            if m[2] < len(got):   # a resend (after a sync) repeats what travelled
                assert [encode(a) for a in got[m[2]:m[2] + len(m[3])]] == \
                    [encode(a) for a in m[3]][:len(got) - m[2]], m
            got[m[2]:] = m[3] + got[m[2] + len(m[3]):]
            rev_at.append(pos)
        else:
            raise AssertionError("a message the check cannot place: %r" % (m,))
    assert sorted(ev_pos) == list(range(len(log))), "an event never travelled"
    assert sorted(set(heads)) == [0, 1], "both reveals travel once the game is over"
    for me, got in revealed.items():
        assert len(got) == counts[me], "the reveal's chunks add up to its count"
        mine = [e for a, e in log if a == me and e[0] in EVENT_SHAPES   # its acts, not its
                and e[0] not in ("setup", "concede", "sk", "ss", "so")]  # sealed answers
        assert [encode(a) for a in got] == [encode(e) for e in mine], \
            "the reveal lists actions that never travelled as events"
    assert min(rev_at) > max(ev_pos.values()), "a reveal left before the game ended"
    assert not before_game or max(before_game) < min(ev_pos.values()), "session talk in play"
    return cards_played, len(msgs)


@pytest.mark.bench  # a whole Periplus game through the keys: 2-3 min; make bench
@pytest.mark.timeout(TEST_TIMEOUT_S)
def test_two_units_play_a_full_game_over_uart_through_keys(tmp_path):
    t0 = time.monotonic()
    e = Ether(seed=7)
    e.start()
    emu = Emulator(2, workdir=tmp_path, ether=e, env={"FATHOM_LINK": "uart"})
    try:
        emu.start()
        units = emu.units
        pair_uart(units, "Periplus")
        for u in units:
            u.wait(lambda c: c.text and c.text[0].startswith("Periplus P"), 60, "game screen")
        picks = [hurry(random.Random(i)) for i in range(2)]
        texts, moves = play_through_keys(units, seed=3, picks=picks, timeout=GAME_TIMEOUT_S)
        for t in texts:
            assert t[0] == "Result" and any("verified" in l for l in t), t
        heads = sorted(t[1] for t in texts)
        assert heads in (["Draw", "Draw"], ["You lose", "You win"]), texts
        saves = [load_game(tmp_path / ("unit%d" % i)) for i in range(2)]
        assert encode(saves[0]["seat"]["log"]) == encode(saves[1]["seat"]["log"])
        played, n = check_no_card_before_play(list(e.capture), saves)
        assert played > 0
        print("periplus e2e: %d moves through keys, %d events, %d messages, %.0f s" % (
            moves, len(saves[0]["seat"]["log"]), n, time.monotonic() - t0))
    finally:
        emu.close()
        e.stop()


# ---- the check itself must be able to fail ---------------------------------------------------
class _Rec:
    def __init__(self, src, data):
        self.src, self.data, self.link = src, data, "uart"


_GAMES = {}


def _bot_game(seed=b"leak-check"):
    """A whole game of two easy bots, played once per seed: the checks read its seats and
    never change them (each tampers with its own list of messages)."""
    if seed not in _GAMES:
        _GAMES[seed] = _play_bot_game(seed)
    return _GAMES[seed]


def _play_bot_game(seed):
    seats = make_seats(ENGINE, ENGINE.options({}), 2, seed)
    bots = [EasyBot(seed, 0), EasyBot(seed, 1)]
    while seats[0].result() is None:
        s = next_author(seats)
        while s.setup_legal():
            s.setup_choose(bots[s.player].setup(s))
        ev = s.author(bots[s.player].act(s) if s.to_move()[1] == "act" else None)
        for o in seats:
            if o is not s:
                o.receive(s.player, ev)
    return seats


def _capture(msgs):
    """(unit, message) pairs as the UART bytes a keyed channel would send, fragments and all."""
    mac = Mac(bytes(32))
    seq = [0, 0]
    out = []
    for src, m in msgs:
        data = encode(m)
        for i in range(0, len(data), frame.MAX_PAYLOAD):
            last = i + frame.MAX_PAYLOAD >= len(data)
            fr = frame.encode(frame.DATA if last else frame.MORE, 1, seq[src], 0,
                              data[i:i + frame.MAX_PAYLOAD], mac, src)
            seq[src] += 1
            out.append(_Rec(src, wrap(fr)))
    return out


def _honest(seats):
    msgs = [(a, ["ev", i, a, e, seats[a].record_at(i)[3], seats[a].record_at(i)[4]])
            for i, (a, e) in enumerate(seats[0].log)]
    for p in (0, 1):
        salt, setup, actions = seats[p].reveal()
        msgs.append((p, ["rev", p, salt, setup, len(actions)]))
        for i in range(0, len(actions), 12):
            msgs.append((p, ["ra", p, i, actions[i:i + 12]]))
    return msgs


def _first_card_event(seats):
    for i, (a, e) in enumerate(seats[0].log):
        if e[0] in CARD_EVENTS:
            return i, a, e


def _tamper(kind, seats, msgs):
    i, a, e = _first_card_event(seats)
    if kind == "hand in a sync":
        msgs.insert(i, (a, ["sync", i, bytes(8), seats[a].priv["hand"]]))
    elif kind == "unknown message":
        msgs.insert(i, (a, ["hint", seats[a].priv["hand"]]))
    elif kind == "another card":
        msgs[i] = (a, ["ev", i, a, [e[0], (e[1] + 1) % C.NKINDS] + e[2:], bytes(8), bytes(8)])
    elif kind == "early reveal":
        msgs.insert(i, msgs.pop())
    elif kind == "card name":
        msgs.insert(i, (a, ["ev", i, a, ["discard", C.name(e[1])], bytes(8), bytes(8)]))
    return msgs


def test_leak_check_passes_an_honest_capture():
    seats = _bot_game()
    msgs = _honest(seats)
    played, n = check_no_card_before_play(_capture(msgs), [{"seat": seatcopy.save(s)} for s in seats])
    assert played > 0 and n == len(msgs) > len(seats[0].log) + 2


@pytest.mark.parametrize("kind", ["hand in a sync", "unknown message", "another card",
                                  "early reveal", "card name"])
def test_leak_check_catches_a_card_out_of_place(kind):
    seats = _bot_game()
    msgs = _tamper(kind, seats, _honest(seats))
    with pytest.raises(AssertionError):
        check_no_card_before_play(_capture(msgs), [{"seat": seatcopy.save(s)} for s in seats])
