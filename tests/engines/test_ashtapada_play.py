# Lake Ashtapada whole games: random play-outs with clean audits, a lying unit caught by the
# audit, no mine position on the link before the rules reveal it, and the deduction never
# ruling out a real mine. Runs under CPython and the MicroPython unix port.
import pytest

from hostmodes import seatcopy
from fathom.codec import encode
from fathom.games import local
from hostmodes.seatcopy import restore
from fathom.games.ashtapada.engine import ENGINE, Ashtapada, report, candidates, certain
from fathom.games.bots import RandomBot
from fathom.games.ashtapada.bot import SharpBot, EasyBot
from fathom.games.audit import audit

pytestmark = pytest.mark.micropython

OPTS = [None, {"size": 8, "mines": 3, "islands": 0}, {"size": 12, "mines": 7, "islands": 3}]


def options(i):
    return ENGINE.options(OPTS[i % len(OPTS)])


def clean(res):
    assert res["result"] is not None
    for auditor, player, outcome in res["audits"]:
        assert outcome is None, (auditor, player, outcome)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_random_playouts_finish_with_clean_audits(seed):
    res = local.play(ENGINE, options(seed), 2, b"rp%d" % seed,
                     [RandomBot(seed, 0), RandomBot(seed, 1)])
    clean(res)
    winners, reason = res["result"]
    assert len(winners) <= 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bot_playouts_finish_with_clean_audits(seed):
    bots = [SharpBot(seed, 0), EasyBot(seed, 1)] if seed % 2 else [EasyBot(seed, 0),
                                                                    SharpBot(seed, 1)]
    clean(local.play(ENGINE, options(seed), 2, b"bp%d" % seed, bots))


def test_save_restore_round_trip():
    res = local.play(ENGINE, options(2), 2, b"sv", [SharpBot(1, 0), SharpBot(1, 1)])
    for s in res["seats"]:
        again = restore(ENGINE, seatcopy.save(s))
        assert encode(again.pub) == encode(s.pub)
        assert encode(again.priv) == encode(s.priv)
        assert again.short_hash() == s.short_hash()


class Liar(Ashtapada):
    """Drops the farthest ping from its first non-empty report: still a well-formed answer."""

    def __init__(self):
        self.lied = False

    def answer(self, pub, priv, player):
        ev = Ashtapada.answer(self, pub, priv, player)
        if ev[0] == "ping" and ev[2] and not self.lied:
            self.lied = True
            ev = ["ping", ev[1], ev[2][:-1]]
        return ev


def play_with(seats, bots, on_event):
    while seats[0].result() is None:
        s = local.next_author(seats)
        bot = bots[s.player]
        while s.setup_legal():
            s.setup_choose(bot.setup(s))
        t = s.to_move()
        ev = s.author(bot.act(s) if t[1] == "act" else None)
        for o in seats:
            if o is not s:
                o.receive(s.player, ev)
        on_event(s, ev)
        assert seats[0].short_hash() == seats[1].short_hash()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_lying_ping_report_is_named_by_the_audit(seed):
    seats = local.make_seats(ENGINE, ENGINE.options(), 2, b"lie%d" % seed)
    liar = Liar()
    seats[1].engine = liar
    lie_at = []

    def spot(seat, ev):
        if seat.player == 1 and liar.lied and not lie_at:
            lie_at.append(len(seat.log) - 1)

    play_with(seats, [SharpBot(seed, 0), SharpBot(seed, 1)], spot)
    assert lie_at, "the liar never reported a ping"
    verdict = audit(seats[0], 1, seats[1].reveal())
    assert verdict is not None and verdict[0] == lie_at[0], verdict
    assert audit(seats[1], 0, seats[0].reveal()) is None


def event_squares(ev):
    """Squares named in an event, by its shape."""
    tag = ev[0]
    if tag == "setup":
        return list(ev[1])
    if tag == "move":
        return list(ev[1])
    if tag in ("sound", "depth", "ping", "hit"):
        return [ev[1]]
    if tag == "mine":
        return [ev[1]] if ev[1] >= 0 else []
    return []


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_no_frame_carries_mines_before_the_rules_reveal_them(seed):
    sent = []
    res = local.play(ENGINE, options(seed), 2, b"sec%d" % seed,
                     [SharpBot(seed, 0), RandomBot(seed, 1)],
                     on_event=lambda a, ev: sent.append((a, ev)))
    seats = res["seats"]
    for p in (0, 1):
        mines = seats[p].priv["mines"]
        islands = sorted(seats[p].priv["islands"])
        revealed = []
        blob = encode(sorted(mines))
        pending = None
        for author, ev in sent:
            assert blob not in encode(ev)
            if author != p:
                pending = ev
                continue
            tag = ev[0]
            if tag == "setup":
                assert ev[1] == islands and len(ev) == 3 and len(ev[2]) == 32
            elif tag == "mine":
                assert len(ev) == 2
                if ev[1] >= 0:       # rule 4.1 reveals the mine that sank the boat
                    assert ev[1] in mines and ev[1] in pending[1]
                    revealed.append(ev[1])
            elif tag == "hit":
                assert len(ev) == 3 and ev[1] == pending[1]
                if ev[2]:            # rule 4.3 reveals a destroyed mine
                    revealed.append(ev[1])
            elif tag == "ping":      # distances only: exactly what rule 5 asks for
                assert len(ev) == 3 and ev[1] == pending[1]
                assert all(isinstance(d, int) and d < 2 * seats[p].pub["size"] for d in ev[2])
            if tag in ("setup", "mine", "hit", "ping"):
                for s in event_squares(ev):
                    assert s not in mines or s in revealed or s == pending[1], (ev, mines)


@pytest.mark.parametrize("seed", [0, 1])
def test_deduction_never_rules_out_a_real_mine(seed):
    check_deduction(seed, options(seed))


def check_deduction(seed, opts):
    """After every event, each seat's candidates() cover the opponent's live mines and its
    certain() squares are all live mines."""
    seats = local.make_seats(ENGINE, opts, 2, b"ded%d" % seed)
    checked = []

    def check(_seat, _ev):
        for s in seats:
            me = s.player
            cand = candidates(s.pub, me)
            live = [m for m in seats[1 - me].priv["mines"] if m not in s.pub["dead"][1 - me]]
            for m in live:
                assert cand[m], (seed, m)
            for m in certain(s.pub, me, cand):
                assert m in live
            checked.append(sum(cand))

    play_with(seats, [SharpBot(seed, 0), SharpBot(seed, 1)], check)
    assert len(checked) > 20 and min(checked) < max(checked)


def test_report_is_the_answer():
    res = local.play(ENGINE, ENGINE.options(), 2, b"rep", [SharpBot(5, 0), SharpBot(5, 1)])
    seats = res["seats"]
    n = seats[0].pub["size"]
    isl = seats[0].pub["islands"][0] + seats[0].pub["islands"][1]
    dead = [[], []]
    count = 0
    for author, ev in seats[0].log:
        if ev[0] == "ping":
            live = [m for m in seats[author].priv["mines"] if m not in dead[author]]
            assert ev[2] == report(n, isl, live, ev[1])
            count += 1
        if ev[0] == "hit" and ev[2]:
            dead[author].append(ev[1])
    assert count > 0
