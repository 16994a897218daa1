# Fair play in the game layer: a unit that rewrites its hidden past at reveal time is
# named by the audit at the first event whose state commitment it contradicts (and the same
# rewrite passes the audit without the commitments, so the check is what catches it); a reveal
# that never arrives ends as "did not reveal" after the limit; a partner whose link is lost
# mid-game can be claimed against. Time is driven by the `now` passed to tick, never slept.
import pytest

from fathom.games.bots import RandomBot
from fathom.codec import encode
from fathom.games import engine as engine_of
from fathom.games.local import make_seats
from fathom.games.seat import Seat
from fathom.peers import pipe_pair
from fathom.runner import CLAIMED, REVEAL_MS, VANISH_MS, WITHHELD, Runner, load
from fathom.games.audit import audit
from kit.memstore import MemStorage
from toy.engine import ENGINE as TOY
from kit.play import Recorder, drive as drive_runners, event_of_action, play_seats

pytestmark = pytest.mark.micropython


# ---- rewriting the hidden past --------------------------------------------------------------
class RewritingSeat(Seat):
    """A tampered unit: plays like any seat, but its reveal swaps its k-th action for another
    it could have played then (self.rewrite = (k, action)), e.g. a face-down move to another
    square, chosen afterwards so that every public event is still reproduced."""
    rewrite = None

    def reveal(self):
        salt, choices, actions = Seat.reveal(self)
        if self.rewrite is not None:
            k, alt = self.rewrite
            actions[k] = alt
        return [salt, choices, actions]


def play_out(gid, seed, cheater):
    eng = engine_of(gid)
    # the seeded deal: the hidden moves are the point here, not the cards (and a sealed PING
    # game's few thousand records outgrow MicroPython's test heap in one in-memory journal)
    seeded = {"sealed": 0} if "sealed" in [o[0] for o in eng.OPTIONS] else {}
    seats = make_seats(eng, eng.options(seeded), 2, seed)
    c = seats[cheater]
    seats[cheater] = RewritingSeat(eng, c.opts, 2, seed, cheater, c.salt)
    bots = [RandomBot(seed, p) for p in range(2)]
    bots[cheater] = Recorder(bots[cheater])
    play_seats(seats, bots)
    return seats, bots[cheater].legal


def find_rewrite(gid, hidden, seeds):
    """A game and an earlier hidden action of the cheater that can be swapped for another
    without changing any public event: what the audit without commitments accepts."""
    for seed in seeds:
        seats, legal = play_out(gid, seed, 1)
        honest, cheat = seats[0], seats[1]
        actions = list(cheat.actions)
        for k in range(len(actions) - 1, -1, -1):
            for alt in legal[k]:
                if alt != actions[k] and hidden(actions[k], alt):
                    cheat.rewrite = (k, alt)
                    if audit(honest, 1, cheat.reveal(), commits=False) is None:
                        return honest, cheat, k
            cheat.rewrite = None
    raise AssertionError("no rewritable game among %d seeds" % len(seeds))


def ping_face_down(real, alt):
    # a face-down move ["move", card, square, 0]: the event says "down" and no square
    return real[0] == "move" and alt[0] == "move" and real[1] == alt[1] and \
        real[3] == alt[3] == 0


def silent_run(real, alt):
    return real[0] == "run" and alt[0] == "run"


@pytest.mark.parametrize("gid,hidden", [("ping", ping_face_down), ("sugardog", silent_run)])
def test_a_rewritten_hidden_move_is_named_at_its_event(gid, hidden):
    honest, cheat, k = find_rewrite(gid, hidden, [b"rw%d" % i for i in range(12)])
    at = event_of_action(cheat, k)
    forged = cheat.reveal()
    # without the commitments the rewrite is accepted: every public event checks out
    assert audit(honest, 1, forged, commits=False) is None
    verdict = audit(honest, 1, forged)
    assert verdict is not None and verdict[0] == at, (verdict, at)
    assert "commitment" in verdict[1]
    cheat.rewrite = None
    assert audit(honest, 1, cheat.reveal()) is None            # the true past passes
    assert audit(cheat, 0, honest.reveal()) is None


def test_every_authored_event_carries_a_fresh_commitment():
    # equal hidden states at two events must not give equal bytes (that would say "unchanged")
    seats, _legal = play_out("ping", b"fresh", 1)
    cks = [rec[4] for rec in seats[0].records()]
    assert all(isinstance(c, bytes) and len(c) == 8 for c in cks)
    assert len(set(cks)) == len(cks)
    # both seats journalled the same commitment with each event
    assert cks == [rec[4] for rec in seats[1].records()]


def test_an_event_without_its_commitment_is_refused_by_the_runner():
    a, b = pipe_pair()
    ra, rb = runner_pair(a, b)
    drive([ra, rb], 0, 300, lambda: ra.seat.n_log >= 2)
    n = rb.seat.n_log
    b.inbox.append(encode(["ev", n, 0, ["guess", 1], b"h" * 8]))  # the old, 5-field form
    rb.tick(10000)
    assert "malformed event" in rb.problem and rb.seat.n_log == n
    b.inbox.append(encode(["ev", n, 0, ["guess", 1], b"h" * 8, None]))
    rb.tick(10001)
    assert "commitment" in rb.problem and rb.seat.n_log == n


# ---- time limits ----------------------------------------------------------------------------
def runner_pair(a, b, store=None):
    ra = Runner(Seat(TOY, TOY.options(), 2, b"t1", 0, b"salt0"), [a], store, "toy")
    rb = Runner(Seat(TOY, TOY.options(), 2, b"t1", 1, b"salt1"), [b])
    return ra, rb


def drive(runners, now, limit, until):
    return drive_runners(runners, [RandomBot(b"t", 0), RandomBot(b"t", 1)], until, limit, now,
                         step=100)


def test_a_withheld_reveal_is_a_distinct_verdict_after_the_limit():
    from fathom.flow.gameend import verdict_text
    store = MemStorage()
    a, b = pipe_pair()
    ra, rb = runner_pair(a, b, store)
    # play until both have the result, then the other unit falls silent: it never reveals
    now = drive([ra, rb], 0, 2000, lambda: ra.result() is not None)
    b.inbox.clear()
    a.inbox.clear()
    t = now
    while now + 500 - t < REVEAL_MS:
        now += 500
        ra.tick(now)
        assert 1 not in ra.verdicts and not ra.finished()
        assert verdict_text(ra) == "audit: waiting"
    now = t + REVEAL_MS + 100
    ra.tick(now)
    assert ra.verdicts == {1: WITHHELD}
    assert verdict_text(ra) == "P2 did not reveal: not verified, counts as a loss"
    assert ra.finished()  # the game can be left
    # the verdict is journalled: a reboot shows it, not "waiting"
    assert load(store, lambda gid: TOY).verdicts == {1: WITHHELD}
    # a reveal arriving late changes nothing: the verdict stands
    rb.tick(now)
    for _ in range(50):
        now += 100
        rb.tick(now)
        ra.tick(now)
    assert ra.verdicts == {1: WITHHELD}


def test_after_a_reboot_the_reveal_count_starts_again():
    store = MemStorage()
    a, b = pipe_pair()
    ra, rb = runner_pair(a, b, store)
    now = drive([ra, rb], 0, 2000, lambda: ra.result() is not None and ra.revealed)
    b.inbox.clear()
    a.inbox.clear()
    ra.tick(now + REVEAL_MS - 1000)  # nearly out of time, then the unit reboots
    back = load(store, lambda gid: TOY)
    back.peers = [a]
    later = now + REVEAL_MS + 5000
    back.tick(later)
    assert 1 not in back.verdicts  # the count restarted at boot
    back.tick(later + REVEAL_MS)
    assert back.verdicts == {1: WITHHELD}


# ---- a partner that vanishes mid-game, over real keyed channels ------------------------------
def linked_pair():
    from fathom.link.connect import Connector
    from hostmodes.wire import Air, connect_all
    air = Air()
    stores = [MemStorage(), MemStorage()]
    cs = [Connector(air.radio(b"\x02\x00\x00\x00\x00" + bytes((i + 1,))), "espnow", "U%d" % i,
                    stores[i], "ping", {}, 0) for i in range(2)]
    now = connect_all(cs)
    assert all(c.state == "ready" for c in cs), [c.error for c in cs]
    rs = []
    for i, c in enumerate(cs):
        seat = Seat(TOY, TOY.options(), 2, c.seed, c.player, b"salt%d" % c.player)
        rs.append(Runner(seat, c.peers(stores[i]), stores[i], "toy", {"vs": "link"}))
    rs.sort(key=lambda r: r.seat.player)
    return rs, stores[[c.player for c in cs].index(0)], now


def test_a_vanished_partner_offers_a_claim_and_the_claim_ends_the_game():
    (ra, rb), store, now = linked_pair()
    now = drive([ra, rb], now, 2000, lambda: ra.seat.n_log >= 4 and not ra.my_turn())
    assert ra.result() is None and not ra.gone()
    # the partner disappears: nothing more from it, ever
    t = now
    with pytest.raises(Exception):
        ra.claim()  # nothing vanished yet
    while not ra.gone():
        now += 250
        ra.tick(now)
        assert now - t <= VANISH_MS + 1000, "never shown as vanished"
    assert now - t >= VANISH_MS
    assert ra.peers[0].state == "lost"
    ra.claim()
    assert ra.result() == ([], CLAIMED) and ra.finished() and ra.claimed
    back = load(store, lambda gid: TOY)
    assert back.claimed and back.result() == ([], CLAIMED)


def test_a_partner_that_is_slow_but_linked_never_vanishes():
    (ra, rb), _store, now = linked_pair()
    now = drive([ra, rb], now, 2000, lambda: ra.seat.n_log >= 4 and not ra.my_turn())
    for _ in range(int(2 * VANISH_MS / 250)):  # the partner thinks for two minutes, link up
        now += 250
        ra.tick(now)
        rb.tick(now)
    assert not ra.gone() and ra.peers[0].state == "linked"


def test_the_game_screen_offers_wait_and_claim():
    from fathom.flow.gameend import ResultScreen
    from fathom.ui.genericscreen import GameScreen
    from kit.panel import App

    (ra, rb), _store, now = linked_pair()
    now = drive([ra, rb], now, 2000, lambda: ra.seat.n_log >= 4 and not ra.my_turn())
    app = App(128, 64)
    scr = GameScreen(app, ra)
    app.push(scr)
    while not ra.gone():
        now += 500
        ra.tick(now)
        scr.tick(now)
    scr.tick(now)
    menu = app.stack[-1]
    assert [i.label for i in menu.items] == ["Wait", "Claim the game"]
    menu.items[0].action(app)              # wait: back to the game, asked again only later
    assert app.stack[-1] is scr and not scr.tick(now + 1000)
    assert scr.tick(now + VANISH_MS)       # still gone a limit later: asked again
    app.stack[-1].items[1].action(app)     # claim
    assert app.stack[-1] is scr and ra.claimed
    scr.tick(now + VANISH_MS + 10)
    res = app.stack[-1]
    assert isinstance(res, ResultScreen)
    assert res._text()[0] == "Game claimed" and "not verified" in " ".join(res._text())
