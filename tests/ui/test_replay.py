# The replay after the audit: a bot game played to its verified end, **Replay** opened from the
# result screen by its key, stepped to the end through the keys, and the panel showing every
# player's hidden state as the reveal gave it (the state the replay rebuilt is each seat's own).
import pytest

from fathom import games
from fathom.codec import encode
from fathom.games import local
from fathom.games.bots import make_bot
from fathom.games.seat import state_hash
from fathom.flow.gameend import REPLAY, ResultScreen
from fathom.peers import pipe_pair
from fathom.runner import Runner
from kit.panel import App
from kit.play import drive

pytestmark = [pytest.mark.micropython, pytest.mark.slow]   # whole games, stepped through

SIZES = ((128, 64), (72, 40))


def finished(gid, seed, level="easy", link=False):
    """Runners of a bot game of two players, played to the end with every audit in: with the
    options of a game against the in-unit bot, or (link) of a linked game (the sealed deal).
    Each runner's `held` is what its seat's secrets were, as the game went: {log length:
    encoded private state}, what the replay must rebuild at that step."""
    from fathom.games.base import local_options
    eng = games.engine(gid)
    opts = eng.options() if link else local_options(eng.options())
    seats = local.make_seats(eng, opts, 2, seed)
    a, b = pipe_pair()
    rs = [Runner(seats[0], [a]), Runner(seats[1], [b])]
    bots = [make_bot(gid, level, seed, p) for p in (0, 1)]
    for r in rs:
        r.held = {}

    def record():
        for r in rs:
            r.held[r.seat.n_log] = encode(r.seat.priv)

    drive(rs, bots, on_step=record)
    return rs


def as_held(rp, runners):
    """The replay's secrets of every player at this step are the ones its seat held then
    (when the game paused there); the number of players checked."""
    n = 0
    for r in runners:
        held = r.held.get(rp.at)
        if held is not None:
            assert encode(rp.privs[r.seat.player]) == held, (r.seat.player, rp.at)
            n += 1
    return n


def opened(runner, size):
    """The result screen on a panel, then its Replay through the key it names."""
    app = App(*size)
    res = ResultScreen(app, runner)
    app.push(res)
    assert "verified" in res.lines() and REPLAY in res.lines(), res.lines()
    press(app, "RIGHT")
    scr = app.stack[-1]
    assert scr.lines()[0].startswith("Replay 0/"), scr.lines()
    return app, scr


def press(app, k):
    app.stack[-1].key(k)
    d = app.hw.display
    d.fill(0)
    app.stack[-1].draw(d)


def to_end(app, scr, stop=None):
    """RIGHT until the end (or until stop(rp)); the number of steps."""
    n = 0
    while scr.rp.at < scr.rp.end and not (stop and stop(scr.rp)):
        press(app, "RIGHT")
        n += 1
    return n


def lit_share(d, box):
    x, y, w, h = box
    return d.lit(x, y, w, h) / float(w * h)


def same_mark(d, x, y, px, mark, *args):
    """True when the square of px pixels at x, y holds exactly `mark`(..., *args) (a
    revealmarks function) and nothing else."""
    from kit.panel import Panel
    ref = Panel(px, px)
    mark(ref, 0, 0, px, *args)
    for yy in range(px - 1):
        for xx in range(px - 1):
            if ref.pixel(xx, yy) != d.pixel(x + xx, y + yy):
                return False
    return True


def sub_at(d, grid, cell, label):
    from fathom.ui.revealmarks import sub
    x, y = grid.where(cell)
    return same_mark(d, x, y, grid.px, sub, label)


def check_rebuilt(scr, runners):
    """The replay's state at the end is every seat's: the public state and each private."""
    rp = scr.rp
    assert rp.at == rp.end == runners[0].seat.n_log
    assert state_hash(rp.pub) == state_hash(runners[0].seat.pub)
    for r in runners:
        assert encode(rp.privs[r.seat.player]) == encode(r.seat.priv)


def check_keys(app, scr):
    """LEFT steps back, UP a turn back, DOWN a turn on, BACK closes it."""
    end = scr.rp.at
    press(app, "LEFT")
    assert scr.rp.at == end - 1
    press(app, "UP")
    back = scr.rp.at
    assert back < end - 1
    press(app, "DOWN")
    assert back < scr.rp.at <= end
    press(app, "OK")
    assert scr.words and scr.lines()[1:] == scr.text()
    press(app, "BACK")
    assert isinstance(app.stack[-1], ResultScreen)


# ---- PING ------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_ping_replay_draws_both_submarines(size):
    from fathom.games.ping import board as B
    rs = finished("ping", b"replay ping %d" % size[0], link=size[0] == 128)
    app, scr = opened(rs[0], size)
    part = scr.part
    steps = 0
    while scr.rp.at < scr.rp.end:
        press(app, "RIGHT")
        as_held(scr.rp, rs)
        steps += 1
        subs = [scr.rp.privs[p]["sq"] for p in (0, 1)]
        if steps % 7 == 0 or scr.rp.at == scr.rp.end:
            d = app.hw.display
            for p in (0, 1):   # every player's submarine, on the square the reveal gives
                label = "*" if subs[0] == subs[1] else str(p + 1)
                assert sub_at(d, part.GRID, B.cell(subs[p]), label), (p, steps)
            for sq in range(B.NSQ):
                if sq not in subs:
                    assert not sub_at(d, part.GRID, B.cell(sq), "1"), sq
                    assert not sub_at(d, part.GRID, B.cell(sq), "2"), sq
            text = "\n".join(scr.text())
            for p in (0, 1):
                assert "P%d at %s" % (p + 1, B.name(subs[p])) in text
    check_rebuilt(scr, rs)
    check_keys(app, scr)


# ---- Lake Ashtapada ----------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_ashtapada_replay_draws_every_mine_afloat(size):
    from fathom.ui.revealmarks import mine
    rs = finished("ashtapada", b"replay lake %d" % size[0])
    app, scr = opened(rs[0], size)
    rp, g = scr.rp, scr.part
    checked = 0

    def check():
        pub = rp.pub
        used = set(pub["boats"]) | set(pub["islands"][0]) | set(pub["islands"][1])
        d = app.hw.display
        for p in (0, 1):
            for m in scr.part.afloat(rp, p):
                if m not in used:
                    x, y = g.GRID.where(m)
                    assert same_mark(d, x, y, g.GRID.px, mine), (p, m, rp.at)
        for c in range(pub["size"] ** 2):
            if c not in used and c not in rp.privs[0]["mines"] + rp.privs[1]["mines"]:
                x, y = g.GRID.where(c)
                assert d.lit(x + 1, y + 1, g.GRID.px - 2, g.GRID.px - 2) == 0, c
        return 1

    while rp.at < rp.end:
        press(app, "RIGHT")
        as_held(rp, rs)
        if rp.at % 9 == 0 or rp.at == rp.end:
            checked += check()
    assert checked > 3
    assert "mines:" in "\n".join(scr.text())
    check_rebuilt(scr, rs)
    check_keys(app, scr)


# ---- Sugar Dog ---------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_sugardog_replay_draws_every_submarine_and_mine(size):
    from fathom.ui.revealmarks import mine, sub
    rs = finished("sugardog", b"replay dog %d" % size[0])
    app, scr = opened(rs[0], size)
    rp, g = scr.rp, scr.part
    checked = 0
    while rp.at < rp.end:
        press(app, "RIGHT")
        as_held(rp, rs)
        d = app.hw.display
        mines = rp.privs[0]["mines"] + rp.privs[1]["mines"]
        torps = [t[2] for t in rp.pub["torps"]]
        afloat = g.subs(rp)
        for p, sq in afloat:   # a submarine alone on its square: exactly its mark
            if sq not in mines and sq not in torps and [q for q, s in afloat if s == sq] == [p]:
                x, y = g.GRID.where(sq)
                assert same_mark(d, x, y, g.GRID.px, sub, str(p + 1)), (p, sq, rp.at)
                checked += 1
        for m in mines:
            if m not in torps and m not in [s for _p, s in afloat]:
                x, y = g.GRID.where(m)
                assert same_mark(d, x, y, g.GRID.px, mine), (m, rp.at)
                checked += 1
    assert checked > 5
    check_rebuilt(scr, rs)
    check_keys(app, scr)


# ---- Periplus ----------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_periplus_replay_shows_both_hands_and_the_draws(size):
    rs = finished("periplus", b"replay peri %d" % size[0])
    app, scr = opened(rs[0], size)
    rp, g = scr.rp, scr.part
    checked = draws = 0
    while rp.at < rp.end:
        press(app, "RIGHT")
        if as_held(rp, rs) < 2:
            continue
        rows = []   # both hands, as the seats held them then, in the strip's two letter codes
        for r in rs:
            hand = decode_priv(r.held[rp.at])["hand"]
            rows += ["P%d %d CARDS" % (r.seat.player + 1, len(hand)),
                     " ".join([g.code(k) for k in hand])]
        strip_shows(app.hw.display, g.SIDE, rows, rp)
        checked += 1
        if [t for t in scr.text() if " drew " in t]:
            draws += 1
    assert checked > 5 and draws > 0
    check_rebuilt(scr, rs)
    check_keys(app, scr)


def strip_shows(d, box, rows, rp):
    """The panel's text strip in box (x, y, w, bottom) is exactly `rows` in the 3x5 font."""
    from kit.panel import Panel
    from fathom.ui.revealmarks import lines
    x, y, w, bottom = box
    ref = Panel(d.width, d.height)
    lines(ref, rows, x, y, w, bottom)
    for yy in range(y, bottom):
        for xx in range(x, d.width):
            assert ref.pixel(xx, yy) == d.pixel(xx, yy), (xx, yy, rp.at, rows)


def decode_priv(held):
    from fathom.codec import decode
    return decode(held)


# ---- Pinned Down -------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_pinned_down_replay_shows_every_hand_and_deck(size):
    rs = finished("pinned_down", b"replay pd %d" % size[0])
    app, scr = opened(rs[0], size)
    rp, g = scr.rp, scr.part
    checked = 0
    while rp.at < rp.end:
        press(app, "RIGHT")
        if as_held(rp, rs) < 2:
            continue
        rows = []   # every hand and deck top, as the seats held them then
        for r in rs:
            priv = decode_priv(r.held[rp.at])
            rows += ["P%d %s" % (r.seat.player + 1, " ".join(priv["hand"])),
                     "DECK %d: %s" % (len(priv["deck"]), " ".join(priv["deck"][:3]))]
        strip_shows(app.hw.display, g.SIDE, rows, rp)
        checked += 1
    assert checked > 5
    assert [t for t in scr.text() if t.startswith("P2 hand: ")]
    check_rebuilt(scr, rs)
    check_keys(app, scr)


# ---- a failed audit ----------------------------------------------------------------------------
def test_a_failed_audit_replays_up_to_the_event_it_names_and_says_so():
    from fathom.games.audit import audit
    rs = finished("sugardog", b"replay forged")
    r = rs[0]
    j = r.seat.journal
    for k, _end, rec in j.read():   # P2's revealed actions, its fourth changed as a forger would
        if rec[0] == "ra" and rec[1] == 1:
            acts = rec[3]
            i = 3
            acts[i] = ["cruise", acts[i][1]] if acts[i][0] != "cruise" else ["sonar"]
            j.replace(k, rec)
            break
    st = r.reveals[1]
    v = audit(r.seat, 1, [st[0], st[1], r._revealed_actions(1)])
    assert v is not None and v[0] > 0, v
    r.verdicts[1] = v                  # what the runner records of that audit
    app = App(128, 64)
    res = ResultScreen(app, r)
    app.push(res)
    assert "P2 event %d fails" % v[0] in "\n".join(res.lines()) and REPLAY in res.lines()
    press(app, "RIGHT")
    scr = app.stack[-1]
    assert scr.rp.end == v[0] < r.seat.n_log
    assert to_end(app, scr) == v[0]
    press(app, "RIGHT")                # nothing past it
    assert scr.rp.at == v[0]
    assert "Replay ends here: P2 event %d fails: %s" % (v[0], v[1]) in scr.text()


def test_an_in_unit_bots_seat_shares_the_public_state_once_the_replay_opens():
    # a third copy of the public state beside the seat's and the bot seat's put Pinned Down's
    # replay over the heap budget: over, the two seats hold the same state, so they share it
    from kit.memstore import MemStorage
    from kit.play import bot_step, solo
    me, bot = solo("pinned_down", b"replay share", MemStorage())
    for k in range(20000):
        bot_step(me, bot, k * 300)
        if me.finished() and me.peers[0].runner.finished():
            break
    theirs = me.peers[0].runner.seat
    assert me.seat.result() is not None and theirs.pub is not me.seat.pub
    before = state_hash(me.seat.pub)
    app, scr = opened(me, (128, 64))
    assert theirs.pub is me.seat.pub and state_hash(me.seat.pub) == before
    to_end(app, scr)
    press(app, "BACK")                          # the result again, the game as it ended
    assert state_hash(me.seat.pub) == before and me.seat.result() is not None
    assert "verified" in app.stack[-1].lines()
