# PING end to end: two emulated units paired over the ether's ESP-NOW through their keys, then
# played through their keys by each unit's own scripted player (hostmodes/uxplayer: a sharp bot
# decides, the screen's keys_for says which keys, the Pin twin presses them), both ending on the
# same verified result. Then everything that went on the air is read back against each unit's true
# secrets, replayed from the final reveals: no frame may carry a location, a hand or a
# face-down card before the rules reveal it.
import time

import pytest

from fathom_host.emulator.drive import finished, pair, play_out, player_env, release
from fathom.codec import decode, encode
from fathom.games.ping.engine import ENGINE
from fathom.games.ping import board as B
from fathom.games.seat import apply_event, fresh_state, step_kind
from kit.capture import keyed_messages
from fathom.link import frame
from kit.savefile import unit_game
from fathom_host.emulator.ether import Ether, Sent
from fathom_host.emulator.units import Emulator

pytestmark = pytest.mark.slow

TITLE = "PING"
SEED = 4


def info(lines, tag):
    """The value of a '# tag value' line of the game screen."""
    for line in lines:
        if line.startswith("# " + tag + " "):
            return line[len(tag) + 3:]
    return ""


# ---- what went on the air -------------------------------------------------------------------
def saved_game(emu, i):
    return unit_game(emu.workdir / ("unit%d" % i))


def messages(capture):
    return keyed_messages(capture)


# ---- the secrets, replayed from the reveals -------------------------------------------------
def named(ev):
    """(squares, cards) at the positions where the engine's events put them."""
    tag = ev[0]
    if tag == "up":
        return [ev[3]], [ev[1]]
    if tag == "report":
        return [ev[1]], []
    if tag == "damage":
        return [ev[2]], []
    if tag == "down":
        return ([ev[1]] if ev[1] >= 0 else []), []
    if tag == "seen":
        return ([ev[3]] if ev[3] >= 0 else []), [ev[1]]
    if tag in ("hand", "dive"):
        return [], [ev[1]]
    # the rest carry no square and no card: their whole shape is fixed (the sealed deal's key,
    # shuffle chunks and shares are group elements: a card never appears in them)
    assert (tag, len(ev)) in (("setup", 3), ("listen", 1), ("miss", 1), ("shuffle", 1),
                              ("disable", 3), ("hit", 1), ("sk", 2), ("ss", 4),
                              ("so", 4)), ev
    return [], []


def replay(log, seed, opts, player, reveal, hands):
    """Walk the log as `player` with their revealed secrets (the salt gives a sealed deal's
    secret), checking each event they authored names only what the rules reveal. Collects
    every hand they held into `hands`."""
    salt, choices, actions = reveal
    eng = ENGINE.bind(log)   # a sealed deck is read back from the log's shuffle events
    pub, priv = fresh_state(eng, opts, 2, seed, player, bytes(salt))
    for c in choices:
        eng.setup_apply(pub, priv, player, c)
    actions = list(actions)
    setups = {}
    for i, (author, ev) in enumerate(log):
        kind = step_kind(eng, pub, author, ev, 2, setups)
        if kind == "setup":
            # a commitment only, and with the sealed deal the commitment to its key
            assert ev[1] is None if "sd" not in pub else len(ev[1]) == 32, ev
            eng.apply(pub, author, ev)
            setups[author] = ev[2]
            continue
        before = priv["sq"]
        down = priv["last"]
        if author == player:
            if kind == "act":
                assert eng.act(pub, priv, player, actions.pop(0)) == ev
            else:
                assert eng.answer(pub, priv, player) == ev
        if author == player:
            sqs, cards = named(ev)
            for s in sqs:  # only the author's own square, and only in a revealing event
                assert s in (before, priv["sq"]), (i, ev, before, priv["sq"])
            for c in cards:  # the card just played face up, or the face-down one now shown
                if ev[0] == "up":
                    assert [c, ev[2]] == priv["last"] and B.yellow(c, ev[2]), (i, ev)
                else:
                    assert down is not None and c == down[0], (i, ev, down)
                assert c not in [x for x, _d in priv["hand"]] and c != priv["inc"], (i, ev)
            if ev[0] == "down":  # a face-down play names no card, no move, no square unasked
                assert ev[1] in (-1, priv["sq"]) and ev[2] in (0, 1)
        apply_event(eng, pub, priv, player, author, ev, kind)
        if len(priv["hand"]) >= 2:
            hands.append(encode(priv["hand"]))
    assert not actions


def check_secrecy(saves, capture):
    log = [(a, e) for a, e in saves[0]["seat"]["log"]]
    assert [(a, e) for a, e in saves[1]["seat"]["log"]] == log
    seed = saves[0]["seat"]["seed"]
    opts = saves[0]["seat"]["opts"]
    reveals = {}
    for sv in saves:
        for p, r in sv["reveals"].items():
            reveals[int(p)] = r
    assert sorted(reveals) == [0, 1]
    hands = []
    for p in (0, 1):
        replay(log, seed, opts, p, reveals[p], hands)
    # the secrets long enough to search for as bytes: salts, hands, the private actions
    # (a square or a card is one byte, 0x40|n, and matches anywhere: those are checked above at
    # the positions where events put them, and every event on the air is checked against
    # the log below)
    needles = [bytes(reveals[p][0]) for p in (0, 1)] + hands
    diving = []
    for p in (0, 1):
        for a in reveals[p][2]:
            if a[0] == "disable":
                continue  # the attacker's pick is its event, public by design
            (diving if a[0] == "dive" else needles).append(encode(a))
    msgs = messages(capture)
    last_event_at = first_rev = None
    kinds = []
    for k, src, raw in msgs:
        try:
            m = decode(raw)
        except ValueError:
            m = None  # not a message: its bytes are still searched below
        tag = m[0] if isinstance(m, list) and m else None
        if tag in ("rev", "ra"):  # salt, set-up and actions: only once the game is over
            first_rev = k if first_rev is None else first_rev
            continue
        if tag == "ev":
            # every event on the air is the log's, verbatim: the replay above vetted it
            assert len(m) == 6 and [m[2], m[3]] == list(log[m[1]]), m
            if m[1] == len(log) - 1 and last_event_at is None:
                last_event_at = k
        elif tag == "sync":
            assert len(m) == 3 and type(m[1]) is int and len(m[2]) == 8, m
        for nd in needles:
            assert nd not in raw, ("leak", k, src, m)
        for nd in diving:  # a DIVE card goes on the air only in the answer showing it
            assert nd not in raw or (tag == "ev" and m[3][0] == "dive"), ("leak", k, src, m)
        if tag not in kinds:
            assert "ev" not in kinds or tag == "sync", (k, m)  # in play: events and syncs only
            kinds.append(tag)
    # before the game: the joint seed's proposal, accept and nonce reveal, nothing more
    assert kinds[:kinds.index("ev")] == ["gp", "ga", "rv"] and set(kinds) <= set(
        ["gp", "ga", "rv", "ev", "sync"]), kinds
    assert last_event_at is not None and first_rev is not None
    assert first_rev > last_event_at, ("early reveal", first_rev, last_event_at)
    for s in capture[:first_rev]:  # nor in any raw frame, keyed or not, fragment or whole
        for nd in needles:
            assert nd not in bytes(s.data), ("leak", s, nd)
    return log, hands


class _Tag:
    def digest(self, *parts):
        return bytes(32)


def _sent(data, link="espnow"):
    s = Sent(0.0, 0, 1, data)
    s.link = link
    s.enc = False
    return s


def planted_leaks(saves, hands):
    """Captures with one leak put in front: a hand in a keyed message, a salt in an unkeyed
    beacon, a private action, a reveal before the game ended. `hands`: the replay's (encoded),
    the real ones whatever the deal (a sealed deal's cannot be read from the seed)."""
    seat = saves[0]["seat"]
    hand = decode(hands[0])

    def keyed(m):
        return _sent(frame.encode(frame.DATA, 0xBEEF, 1, 0, encode(m), _Tag()))
    out = [([keyed(["x", 1, hand])], "leak"),
           ([_sent(frame.encode(frame.BEACON, 0, 0, 0, b"hi" + bytes(seat["salt"])))], "leak")]
    acts = [a for a in seat["actions"] if a[0] not in ("disable", "dive")]
    if acts:
        out.append(([keyed(["note", acts[0]])], "leak"))
    out.append(([keyed(["rev", seat["player"], seat["salt"], seat["setup"], 0])],
                "early reveal"))
    return out


def test_two_units_play_ping_over_espnow_through_their_keys(tmp_path):
    ether = Ether(seed=SEED)
    ether.start()
    t0 = time.monotonic()
    try:
        with Emulator(2, workdir=tmp_path, ether=ether, env=player_env(hold=True)) as emu:
            a, b = emu.units
            pair([a, b], TITLE)
            for u in (a, b):
                u.wait(lambda c: c.text and c.text[0].startswith(TITLE) and info(
                    c.text, "cursor"), 60, "game screen")
            paired = time.monotonic() - t0
            a.press("BACK")  # the log, from the pause menu, then back to the map
            a.choose("Game log")
            assert a.text[0] == "Game log", a.text
            a.press("BACK")
            a.choose("Back to game")
            assert a.text[0].startswith(TITLE) and info(a.text, "foe"), a.text
            release([a, b])
            results, reports = play_out([a, b], timeout=300)
            played = time.monotonic() - t0 - paired
            for u, lines in zip((a, b), results):
                assert finished(u) and "verified" in lines, lines
            heads = sorted(r[1] for r in results)
            assert heads == ["You lose", "You win"] and results[0][2] == results[1][2], results
            assert all(r["presses"] and min(r["presses"]) >= 1 for r in reports), reports
            saves = [saved_game(emu, i) for i in range(2)]
    finally:
        ether.stop()
    capture = list(ether.capture)
    log, hands = check_secrecy(saves, capture)
    assert saves[0]["seat"]["opts"]["sealed"] == 1 and any(e[0] == "ss" for _a, e in log)
    for plant, what in planted_leaks(saves, hands):  # and the check does find a leak
        with pytest.raises(AssertionError, match=what):
            check_secrecy(saves, plant + capture)
    presses = [n for r in reports for n in r["presses"]]
    print("ping over espnow: %s by %s, paired %.1f s, %d choices in %d presses, %d events, "
          "played %.1f s, %.1f s total" % (heads, results[0][2], paired, len(presses),
                                           sum(presses), len(log), played,
                                           time.monotonic() - t0))
