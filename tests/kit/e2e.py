# End-to-end test parts shared by the test modules (the key-driving helpers are the host
# tools', re-exported by e2e_driver.py): the emulated radio as a pytest fixture, a unit lent as
# the bot opponent, a group game's start and verified end, a game's options on its menu, and a
# pair whose one unit stops mid-game for a fault and whose other ends the game void in words.
import contextlib

import pytest

from fathom.codec import decode
from fathom.hal.records import scan_records
from fathom_host.emulator.drive import finished, pair, pair_group, player_env
from fathom_host.emulator.ether import Ether
from fathom_host.emulator.units import Emulator


def ether_fixture(seed):
    """A fixture named `ether` for a module (`ether = ether_fixture(17)`): the emulated radio
    with its faults seeded by `seed`, started for the test and stopped after it."""
    @pytest.fixture
    def ether():
        e = Ether(seed=seed)
        e.start()
        yield e
        e.stop()
    return ether


def chain(u):
    """[(author, event, hash8)] of every event the unit journalled, read from its flash file."""
    with open(str(u.dir / "data" / "game"), "rb") as f:
        recs = [decode(body) for _p, _e, body in scan_records(f)]
    return [(r[1], r[2], bytes(r[3])) for r in recs[1:] if r[0] == "e"]


def verified(lines):
    """A result screen whose audit checked out."""
    return lines[:1] == ["Result"] and "verified" in lines


# ---- a fault in the middle of a pair's game ----------------------------------------------------
def lake_pair(workdir, ether, hurt=1):
    """Two units over the ether's ESP-NOW for Lake Ashtapada, each played by its scripted
    player: unit `hurt`'s stops after four choices (four_choices_then_off), the other's plays
    on."""
    emu = Emulator(2, workdir=workdir, ether=ether, env={"FATHOM_LINK": "espnow"})
    for u in emu.units:
        u.extra_env.update(player_env(moves=4) if u.index == hurt else player_env())
    return emu


def four_choices_then_off(emu, hurt=1):
    """In `with emu` (lake_pair's): the units paired, four choices made on unit `hurt`, which
    is then switched off without its player (what it meets next is the test's); returns it."""
    u = emu.units[hurt]
    pair(emu.units, "Lake Ashtapada")
    assert u.wait(lambda c: c.ux is not None, 120, "four choices").ux.get("error") is None
    u.kill()
    u.extra_env.pop("FATHOM_UXPLAYER")
    return u


def ends_void(u, words, what="the partner's void game"):
    """Unit u's result is "Game void" with `words` on it, and it never found its partner
    vanished or not answering."""
    u.wait(lambda c: c.text[:1] == ["Result"] and "Game void" in c.text, 60, what)
    assert any(words in l for l in u.text), u.text
    assert not any("vanished" in l or "not answering" in l for l in u.text), u.text


# ---- menus ------------------------------------------------------------------------------------
def set_calm(u, value=10):
    """Sugar Dog's game menu, open on unit u: 'Calm rounds' cycled to `value` (a shorter
    game). Usable as pair_group's options(host)."""
    for _ in range(12):
        sel = u.selected() or ""
        if sel.startswith("Calm rounds") and sel.endswith(": %d" % value):
            return
        u.choose("Calm rounds")
    raise AssertionError("could not set calm on unit %d: %r" % (u.index, u.text))


def lend(u):
    """Settings, Opponent: off -> easy, so that the home menu offers "Play as bot"."""
    u.choose("Settings")
    u.choose("Opponent")
    assert any("Opponent: easy" in l for l in u.text), u.text
    u.press("BACK")


def propose(me, title):
    """Open `title`'s link game on unit me and pick the one unit listed (the lent one)."""
    me.choose(title)
    me.choose("vs other unit")
    me.wait_text("Choose a unit", 30)
    me.press("OK")


def home_without_game(u):
    """Pull the power, remove the game's journal and link (settings and pairings stay), start
    again: the unit boots to its home menu, remembering whom it paired with."""
    u.kill()
    for p in (u.dir / "data").iterdir():
        if not p.name.startswith(("settings", "pairings")):
            p.unlink()
    u.start()


@contextlib.contextmanager
def lent_pair(tmp_path, seed):
    """Two started units over the ether's ESP-NOW: `me`, at its home menu, and `lent`, lent
    as the bot opponent and waiting on "Play as bot". Yields (ether, me, lent)."""
    with Ether(seed=seed) as ether:
        with Emulator(2, workdir=tmp_path, ether=ether, env={"FATHOM_LINK": "espnow"}) as emu:
            me, lent = emu.units
            lend(lent)
            lent.choose("Play as bot")
            yield ether, me, lent


# ---- a group game ------------------------------------------------------------------------------
@contextlib.contextmanager
def fleet(tmp_path, n, seed):
    """n units on a fresh ether, not started (give each its scripted player in extra_env, then
    start_group); all killed and the ether stopped after."""
    with Ether(seed=seed) as ether:
        emu = Emulator(n, workdir=tmp_path, ether=ether)
        try:
            yield emu
        finally:
            emu.close()


def start_group(units, title, lent=(), options=None, limit=120):
    """Boot every unit, lend those whose index is in `lent`, pair them as units[0]'s group of
    len(units) through the keys (options(host) on the host's game menu first) and wait for
    the game's screen on every unit."""
    for u in units:
        u.start(wait=False)
    for u in units:
        u.wait(lambda c: c.text and c.screen is not None, 60, "boot")
    for i in lent:
        lend(units[i])
    pair_group(units, title, lent=lent, options=options)
    for u in units:
        u.wait(lambda c: c.text and c.text[0].startswith(title), limit, "the game screen")


def one_verified_end(units):
    """Every unit shows a verified result (its audit done) and all journalled one chain of
    hashes: that chain."""
    for u in units:
        assert finished(u) and verified(u.text), (u.index, u.text)
    chains = [chain(u) for u in units]
    assert all(c == chains[0] for c in chains), [len(c) for c in chains]
    return chains[0]
