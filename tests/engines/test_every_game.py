# What every registered game must do, run over games.IDS as read when this module is collected,
# so a game joins by registering. The toy (tests/toy/, a game folder outside fathom.games) is
# registered here and runs through every test, as a sixth game would. Per game: the declaration
# is sane and its parts import; every option value starts a game; random play-outs end with every
# seat's audit passing and a log line for every event; the longest of several games stays within
# a bound; a seat rebuilt from its journal equals the live one; the audit names a tampered action
# and a lying set-up at their events; bots decide from their own view; and what a seat sends
# (its set-up event, its commitments) shows nothing of its secrets that the rules keep hidden.
# A game's own rules (which events may reveal what, its liars) stay in its own test files.
import hashlib
import sys

import pytest

from kit import panel as uikit  # noqa: F401  (on CPython: the framebuf stand-in the screen parts draw with)
from fathom import games
from fathom.codec import decode, encode
from fathom.games import local
from fathom.games import describe
from fathom.games.base import local_options
from fathom.games.bots import RandomBot, levels, make_bot
from fathom.games.seat import Seat, commitment, state_commit
from fathom.games.audit import audit
from kit.memstore import MemStorage
from kit.play import Recorder, bot_step, check_resume, event_of_action, play_seats, solo

pytestmark = pytest.mark.micropython

TOY = "toy"          # the package (tests/toy) and its game id
MP = sys.implementation.name == "micropython"
SEEDS = 3 if MP else 6   # play-outs per game (the unix port is slower; it checks the code runs)
def longest(n):
    """Events no game of n random bots may outlast: 3000 for up to six players (the longest
    seen: a PING game of 2,436 with its default sealed deal, whose hands differ from the seeded
    deal's; 40 random PING games of either deal end in 1,100 or less), more for a big group
    (8 players of Sugar Dog: ~3,200 seen)."""
    return max(3000, 500 * n)
PARTS = ("engine", "say", "bot", "screen", "companion", "replay")


def _collect():
    added = TOY not in games.IDS
    if added:
        games.register(TOY)
    try:
        return list(games.IDS), [(g, lv) for g in games.IDS for lv in levels(g)]
    finally:
        if added:
            games.unregister(TOY)


GIDS, BOTS = _collect()


def ready(gid):
    """The game's id, registering the toy first when a test needs it (and it is not yet)."""
    if gid not in games.IDS:
        games.register(gid)
    return gid


if hasattr(pytest, "fixture"):  # CPython: the toy leaves the registry after each test
    @pytest.fixture(autouse=True)
    def _toy_leaves():
        had = TOY in games.IDS
        yield
        if not had and TOY in games.IDS:
            games.unregister(TOY)


def nplayers(eng, i=0):
    lo, hi = eng.PLAYERS
    return lo + i % (hi - lo + 1)


def options(eng):
    """The default options; under MicroPython with the sealed deal off: every seat's journal is
    in RAM here, a long sealed game's shuffle events fragmented the unix port's 8 MB heap, and
    its exponentiations doubled this module's time there (the sealed deal under MicroPython:
    test_sealed_games.py; every property here holds sealed under CPython)."""
    return local_options(eng.options()) if MP else eng.options()


def playouts(gid):
    """SEEDS games of random bots, player counts cycling through the game's range, as
    figures (results, audits, log lines): the seats' journals would fill a small heap."""
    eng = games.engine(gid)
    outs = []
    for i in range(SEEDS):
        seed = b"every-%s-%d" % (gid.encode(), i)
        n = nplayers(eng, i)
        opts = options(eng)
        out = local.play(eng, opts, n, seed, [RandomBot(seed, p) for p in range(n)],
                         max_events=longest(n))
        seats = out.pop("seats")
        out["n"] = n
        out["results"] = [s.result() for s in seats]
        out["lines"] = [(a, e, describe(eng, seats[0], a, e)) for a, e in seats[0].log]
        outs.append(out)
    return outs


# ---- the declaration --------------------------------------------------------------------------
@pytest.mark.parametrize("gid", GIDS)
def test_the_declaration_is_sane_and_its_parts_import(gid):
    d = games.declaration(ready(gid))
    assert d.ID == gid and games.package(gid).split(".")[-1] == gid  # the folder is the id
    assert d.TITLE and isinstance(d.TITLE, str)
    lo, hi = d.PLAYERS
    assert 1 <= lo <= hi <= 8
    assert "engine" in d.PARTS and "say" in d.PARTS and all(p in PARTS for p in d.PARTS), d.PARTS
    keys = [o[0] for o in d.OPTIONS]
    assert len(set(keys)) == len(keys)
    for o in d.OPTIONS:
        assert len(o) in (4, 5), o
        key, label, choices, default = o[:4]
        assert label and choices and default in choices, key
        assert all(type(c) in (int, str) for c in choices), key
        if len(o) == 5:   # names for the values, one each, as the menu shows them
            assert len(o[4]) == len(choices) and all(n and isinstance(n, str) for n in o[4]), o
    eng = games.engine(gid)
    assert (eng.NAME, eng.TITLE, eng.PLAYERS) == (d.ID, d.TITLE, d.PLAYERS)
    assert encode(list(eng.OPTIONS)) == encode(list(d.OPTIONS))
    for name in d.PARTS:
        games.part(gid, name)   # MissingPart, naming both, if a declared part does not import
    if "bot" in d.PARTS:
        m = games.part(gid, "bot")
        assert m.EasyBot and m.SharpBot
    if "screen" in d.PARTS:
        assert callable(games.part(gid, "screen").screen)
    if "companion" in d.PARTS:
        assert callable(games.part(gid, "companion").open_mode)
    if "replay" in d.PARTS:
        m = games.part(gid, "replay")
        assert callable(m.draw) and callable(m.words)
    for name in PARTS:
        if name not in d.PARTS:
            with pytest.raises(games.MissingPart):
                games.part(gid, name)


@pytest.mark.parametrize("gid", GIDS)
def test_every_option_value_starts_a_game(gid):
    eng = games.engine(ready(gid))
    for o in eng.OPTIONS:
        key, choices = o[0], o[2]
        for v in choices:
            opts = games.options(gid, {key: v})
            assert opts[key] == v
            seed = b"opt-%s-%s" % (key.encode(), str(v).encode())
            seats = local.make_seats(eng, opts, nplayers(eng), seed)
            bots = [RandomBot(seed, p) for p in range(len(seats))]
            n = play_seats(seats, bots, until=lambda: seats[0].n_log >= 12)
            assert n > 0 and seats[0].pub is not None


# ---- whole games --------------------------------------------------------------------------------
@pytest.mark.slow   # whole games: make test, not the fast loop
@pytest.mark.parametrize("gid", GIDS)
def test_random_playouts_end_verified_within_the_bound_with_a_line_for_every_event(gid):
    # every player count the game takes; every seat audits every other; the longest of the
    # games stays under its bound (longest); describe() gives a line for every event (an engine
    # that cannot describe one of its events raises there: games.describe hides nothing)
    ready(gid)
    outs = playouts(gid)
    for out in outs:
        n = out["n"]
        assert out["result"] is not None
        assert len(out["audits"]) == n * (n - 1)
        assert [a for a in out["audits"] if a[2] is not None] == []
        assert out["results"] == [out["result"]] * n
        assert len(out["lines"]) == out["events"] > 0
        for author, event, line in out["lines"]:
            assert isinstance(line, str) and line.strip(), (author, event)
    assert all(0 < o["events"] < longest(o["n"]) for o in outs)


@pytest.mark.slow   # whole games: make test, not the fast loop
@pytest.mark.parametrize("gid", GIDS)
def test_a_seat_rebuilt_from_its_journal_equals_the_live_one(gid):
    store = MemStorage()
    me, bot = solo(ready(gid), b"journal-" + gid.encode(), store)
    now = 0
    checked = 0
    for k in range(20000):
        now += 300
        bot_step(me, bot, now)
        if k % 37 == 5 or k in (2, 4):  # twice early: a toy game is over in a few moves
            check_resume(store, me)
            checked += 1
        if me.finished() and all(p.runner.finished() for p in me.peers):
            break
    assert me.result() is not None and all(v is None for v in me.verdicts.values())
    check_resume(store, me)
    assert checked >= 2 and me.seat.n_log >= 4
    # the log reads back the same by index, backwards, in slices and whole
    s = me.seat
    whole = list(s.log)
    assert len(whole) == s.n_log
    assert [s.log[i] for i in range(s.n_log - 1, -1, -1)] == whole[::-1]
    assert s.log[1:4] == whole[1:4] and s.log[-3:] == whole[-3:]
    me.clear()
    assert store.names() == []


# ---- the audit ----------------------------------------------------------------------------------
def _recorded_game(gid, seed):
    """A game of random bots in which player 1 acted, its choices recorded."""
    eng = games.engine(gid)
    n = max(2, eng.PLAYERS[0])
    for i in range(10):
        seeds = seed + b"%d" % i
        seats = local.make_seats(eng, options(eng), n, seeds)
        bots = [RandomBot(seeds, p) for p in range(n)]
        bots[1] = Recorder(bots[1], states=True)
        play_seats(seats, bots)
        if len(bots[1].legal) > 1:
            return eng, seats, bots[1]
    raise AssertionError("player 1 never acted twice in 10 games")


def _gives(eng, pub, priv, player, action):
    """The event and hidden state `action` gives from copies of (pub, priv), encoded."""
    pub, priv = decode(encode(pub)), decode(encode(priv))
    return encode([eng.act(pub, priv, player, action), priv])


def _tamper(eng, rec, actions):
    """(k, alt): the latest action of the recorded seat (player 1) with another it could have
    played then that gives another event or hidden state, so a replay can tell them apart."""
    for k in range(len(actions) - 1, -1, -1):
        pub, priv = rec.at[k]
        real = _gives(eng, pub, priv, 1, actions[k])
        for alt in rec.legal[k]:
            if _gives(eng, pub, priv, 1, alt) != real:
                return k, alt
    raise AssertionError("no action had an alternative that plays differently")


@pytest.mark.slow   # whole games: make test, not the fast loop
@pytest.mark.parametrize("gid", GIDS)
def test_the_audit_names_a_tampered_action_at_its_event(gid):
    eng, seats, rec = _recorded_game(ready(gid), b"tamper-" + gid.encode())
    honest, liar = seats[0], seats[1]
    salt, choices, actions = liar.reveal()
    assert audit(honest, 1, [salt, choices, actions]) is None
    k, alt = _tamper(eng, rec, actions)
    actions[k] = alt
    verdict = audit(honest, 1, [salt, choices, actions])
    assert verdict is not None and verdict[0] == event_of_action(liar, k), (verdict, k)


@pytest.mark.parametrize("gid", GIDS)
def test_the_audit_names_a_lying_set_up(gid):
    # a reveal under another salt, and (where the set-up had a choice) another set-up: both
    # contradict the set-up commitment, named at the liar's set-up event
    eng, seats, rec = _recorded_game(ready(gid), b"setup-" + gid.encode())
    honest, liar = seats[0], seats[1]
    salt, choices, actions = liar.reveal()
    at = [i for i, (a, ev) in enumerate(honest.log) if a == 1 and ev[0] == "setup"][0]
    forged = [[bytes(16), choices, actions]]
    for j in range(len(choices) - 1, -1, -1):
        others = [c for c in rec.setup_legal[j] if c != choices[j]]
        if others:
            forged.append([salt, choices[:j] + others[:1] + choices[j + 1:], actions])
            break
    for f in forged:
        verdict = audit(honest, 1, f)
        assert verdict is not None and verdict[0] in (-1, at), (verdict, at, f[1])


# ---- bots decide from their own view -----------------------------------------------------------
class View:
    """What one player may know, and only that: any other attribute is refused."""
    __slots__ = ("pub", "priv", "log", "player", "_seat")

    def __init__(self, seat):
        self._seat = seat
        self.pub = seat.pub
        self.priv = seat.priv
        self.log = seat.log
        self.player = seat.player

    def legal(self):
        return self._seat.legal()

    def setup_legal(self):
        return self._seat.setup_legal()


def reachable(root):
    """id -> object for every container reachable from root through dicts, lists, tuples."""
    seen = {}
    stack = [root]
    while stack:
        o = stack.pop()
        if id(o) in seen or not isinstance(o, (dict, list, tuple, bytearray)):
            continue
        seen[id(o)] = o
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif not isinstance(o, bytearray):
            stack.extend(o)
    return seen


class Guarded:
    """Hands the real bot a View of its seat, keeping each view to check afterwards."""

    def __init__(self, bot, views):
        self.bot = bot
        self.views = views

    def setup(self, seat):
        v = View(seat)
        self.views.append(v)
        return self.bot.setup(v)

    def act(self, seat):
        v = View(seat)
        self.views.append(v)
        return self.bot.act(v)


@pytest.mark.slow   # whole games: make test, not the fast loop
@pytest.mark.parametrize("gid,level", BOTS)
def test_bots_decide_from_their_own_view(gid, level):
    eng = games.engine(ready(gid))
    n = max(2, eng.PLAYERS[0])
    for g in range(1 if MP else 2):
        seed = b"fair%d" % g
        views = []
        bots = [RandomBot(seed, p) for p in range(n)]
        bots[0] = Guarded(make_bot(gid, level, seed, 0), views)
        out = local.play(eng, options(eng), n, seed, bots, max_events=longest(n))
        assert out["result"] is not None and views
        others = {}
        for s in out["seats"][1:]:
            for k, o in reachable(s.priv).items():
                if isinstance(o, (dict, list, bytearray)):  # mutable: identity means sharing
                    others[k] = o
        for v in views[-5:]:
            mine = reachable(v.pub)
            mine.update(reachable(v.priv))
            mine.update(reachable(v.log))
            shared = [o for k, o in mine.items() if k in others and o]
            assert not shared, "the view reaches another player's private objects: %r" % shared[:3]


def test_a_view_refuses_anything_else():
    gid = ready(GIDS[0])
    eng = games.engine(gid)
    n = max(2, eng.PLAYERS[0])
    out = local.play(eng, options(eng), n, b"v", [RandomBot(b"v", p) for p in range(n)])
    v = View(out["seats"][0])
    for name in ("salt", "seed", "actions", "setup_choices", "engine"):
        with pytest.raises(AttributeError):
            getattr(v, name)


# ---- secrecy of what a seat sends --------------------------------------------------------------
def _set_up(eng, opts, n, seed, player, pick):
    """A seat set up by always taking pick(legal choices)."""
    s = Seat(eng, opts, n, seed, player, b"salt-%d" % player)
    while s.setup_legal():
        s.setup_choose(pick(s.setup_legal()))
    return s


@pytest.mark.parametrize("gid", GIDS)
def test_a_set_up_event_shows_only_what_the_rules_make_public(gid):
    # Two different secret set-ups give set-up events that differ only in what setup_public
    # says and in the commitment; the commitment is salted: a guess of the set-up without
    # the salt (hashed bare or under another salt) does not give it.
    eng = games.engine(ready(gid))
    opts = options(eng)
    n = max(2, eng.PLAYERS[0])
    for p in range(n):
        a = _set_up(eng, opts, n, b"sec", p, lambda ch: ch[0])
        b = _set_up(eng, opts, n, b"sec", p, lambda ch: ch[-1])
        for s in (a, b):
            ev = s.setup_event()
            assert ev[0] == "setup" and len(ev) == 3
            assert encode(ev[1]) == encode(eng.setup_public(s.pub, s.priv, p))
            assert ev[2] == commitment(s.salt, s.priv)                  # the control
            assert ev[2] != commitment(b"other salt", s.priv)
            assert ev[2] != hashlib.sha256(encode(s.priv)).digest()
        ea, eb = a.setup_event(), b.setup_event()
        if encode(a.priv) != encode(b.priv):
            assert ea[2] != eb[2]
        if ea[1] is None and eb[1] is None:
            assert ea[:2] == eb[:2]


@pytest.mark.parametrize("gid", GIDS)
def test_commitments_are_fresh_salted_and_carry_no_secret(gid):
    # Every event a seat authors carries an 8-byte commitment to its hidden state: all of a
    # game's are distinct (equal states do not show as equal bytes), each is the salted hash
    # of the author's state (control) and not that state hashed under another salt or index;
    # no event and no commitment carries the author's salt or its whole hidden state.
    eng = games.engine(ready(gid))
    n = max(2, eng.PLAYERS[0])
    seed = b"commit-" + gid.encode()
    seats = local.make_seats(eng, options(eng), n, seed)
    cks = []

    def check(seats, author, ev, _before):
        s = seats[author]
        i = s.n_log - 1
        cks.append(s.ck)
        assert isinstance(s.ck, bytes) and len(s.ck) == 8
        assert s.ck == state_commit(s.salt, i, s.priv)
        assert s.ck != state_commit(b"guess", i, s.priv)
        assert s.ck != state_commit(s.salt, i + 1, s.priv)
        sent = encode(ev)
        assert s.salt not in sent
        whole = encode(s.priv)
        assert len(whole) < 6 or whole not in sent, (ev, s.priv)

    play_seats(seats, [RandomBot(seed, p) for p in range(n)], on_event=check)
    assert len(cks) > 2 and len(set(cks)) == len(cks)
    for s in seats:   # every receiver journalled the author's commitment with the event
        assert [r[4] for r in s.records()] == [r[4] for r in seats[0].records()]
