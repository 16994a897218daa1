# Invitations on an idle home menu: while the home menu is the top screen and nothing else
# runs, the radio listens for the discovery beacons of units looking for a partner
# (docs/PROTOCOL.md, section 3) and one of them is shown over the menu; OK asks whether to join
# that unit's game (ui/confirm.py: the cursor on "Not now", and no key taken in the question's
# first READ_MS, so keys typed for the menu join nothing), BACK puts it aside until that unit
# stops looking; arrows are the menu's, and hide it until the player is idle again. The radio
# is closed before anything else can open it. This module stays loaded while the home menu is, and
# leaves with it while a game is paired or played (App.leave_home: the units put aside are
# forgotten then); the radio's module and a beacon's parser (imported once per new beacon)
# leave with the home menu's shed (App.shed), like everything else loaded at home.
# The same radio says a notice this unit still owes (link/lost.py: its save or link was lost,
# and a partner was away while it told) every OWE_MS, until that partner's receipt comes.
from fathom import games
from fathom.hal.clock import ticks_add, ticks_diff
from fathom.ui.font import CH, TH, tiny_cols, write
from fathom.ui.screen import wrap

IDLE_MS = 3000    # no key for this long: the player is not using the menu, an invitation may show
READ_MS = 1000    # a key within this of an invitation appearing was meant for the menu
HEARD_MS = 4000   # a unit silent this long stopped looking (discovery.SEEN_MS, not imported)
MAX_HEARD = 8     # units remembered at most: beacons from made-up MACs cannot fill the heap
MAX_READS = 16    # frames read a loop at most: a flood cannot stall the menu
# An unkeyed BEACON frame's low nibble (fathom.link.frame, not imported: it and its crypto
# would stay on the home heap): anything else is dropped unparsed.
_BEACON = 0x03
HINT = "OK: join?\nBACK: not now"
OWED = "owed"     # lost.OWED, and its pace (not imported: the notice's module stays off the heap)
OWE_MS = 5000


class Invites:
    def __init__(self, app):
        self.app = app
        self.t = None
        # mac -> [CRC trailer of its beacon, last heard, (name, game, players) or None,
        #         put aside with BACK]: a beacon heard again is recognised by its CRC unparsed
        self.heard = {}
        self.shown = None      # the MAC whose invitation is on screen
        self.since = 0         # when it appeared
        self.ready = False     # READ_MS have passed: OK and BACK answer it
        self.last_key = None   # the player's last key at home (or when home came up)
        self.off = None        # why the radio would not start: no invitations until a reboot
        self.owed = None       # [notice frame, [receipt tags]] (lost.owe), while the radio is open
        self.owe_at = 0        # when it is said next

    # ---- the app's calls ----------------------------------------------------------------
    def tick(self, now, home):
        """home: the home menu is the top screen and nothing runs. True: redraw. Allocates
        nothing while no frame arrives (the home menu's loop runs every 10 ms)."""
        shown, ready = self.shown, self.ready
        if not home or self.off is not None or self.app.settings["link"] != "espnow":
            self.close()
            self.last_key = None
        else:
            if self.last_key is None:
                self.last_key = now    # home just came up: the player may still be busy
            if self.t is None:
                self._open(now)
            if self.t is not None:
                self._listen(now)
                if self.owed is not None and ticks_diff(now, self.owe_at) >= 0:
                    self._say_owed(now)
            self._pick(now)
        return self.shown != shown or self.ready != ready

    def wake_in(self, now):
        """The home menu's loop may rest (App._rest): a beacon wakes it through the radio's
        irq; while a unit is heard, its timers (shown, ready, gone) need a look now and then."""
        app = self.app
        if len(app.stack) > 1 or app.services:
            return None  # not at home: nothing to listen for
        if self.t is None:
            return 0 if self.off is None and app.settings["link"] == "espnow" else None
        if not getattr(self.t, "irq", False):
            return 0  # a radio that cannot wake the loop is polled every loop
        w = 100 if self.heard else None
        if self.owed is not None:
            o = max(0, ticks_diff(self.owe_at, now))
            w = o if w is None else min(w, o)
        return w

    def key(self, k, now):
        """A key at home. True when it answered the invitation; otherwise the menu takes it
        (the invitation comes back once the player is idle again)."""
        mac = self.shown
        self.shown = None
        self.last_key = now
        if mac is not None and self.ready and k in ("OK", "BACK"):
            self.ready = False
            e = self.heard[mac]
            e[3] = True   # aside, unless the question's answer is Join
            if k == "OK":
                self.close()  # before the pairing opens its own transport
                ask_join(self.app, self.text(mac), e[2][1], e[2][2], mac)
            return True
        self.ready = False
        if k not in ("UP", "DOWN"):
            self.close()  # the menu may open a screen that takes the radio
        return False

    def close(self):
        if self.t is not None:
            t, self.t = self.t, None
            t.close()
        self.shown = None
        self.ready = False

    def showing(self):
        return self.shown is not None

    # ---- radio ------------------------------------------------------------------------------
    def _open(self, now):
        try:
            # imported here, not at boot: a game resumed at boot never pays for it, and the
            # home menu's shed drops the module once the radio is let go
            from fathom.link.espnow_link import EspNowLink
            self.t = EspNowLink()
        except Exception as e:
            self.off = repr(e)
            print("fathom: no invitations, the radio did not start: %s" % self.off)
            return
        for e in self.heard.values():
            e[1] = now  # not heard while away, not gone: a unit put aside stays aside
        self.load_owed(now)

    def load_owed(self, now):
        """The notice this unit still owes its partners (lost.owe), said from now on."""
        self.owed = None
        try:
            o = self.app.hw.storage.read_obj(OWED)
        except Exception:  # CorruptFile (set aside): the partners find this unit silent
            o = None
        if isinstance(o, list) and len(o) == 2 and isinstance(o[0], bytes) and o[1]:
            self.owed = o
            self.owe_at = now

    def _say_owed(self, now):
        try:
            self.t.send(None, self.owed[0])
        except OSError:
            pass  # the radio's buffers are full: said again OWE_MS later
        self.owe_at = ticks_add(now, OWE_MS)

    def _answered(self, data):
        """A partner's receipt for the owed notice (its tag, under a key only the two units
        hold, is in the frame): that partner is told."""
        tags = self.owed[1]
        for tag in tags:
            if isinstance(tag, bytes) and tag in data:
                tags.remove(tag)
                st = self.app.hw.storage
                if tags:
                    st.write_obj(OWED, self.owed)
                else:
                    st.remove(OWED)
                    self.owed = None
                return

    def _listen(self, now):
        for _ in range(MAX_READS):
            got = self.t.recv()
            if got is None:
                return
            mac, data = got
            if len(data) < 11 or data[0] & 0x0F != _BEACON:
                continue
            if self.owed is not None:
                self._answered(data)
            crc = data[-4:]
            e = self.heard.get(mac)
            if e is not None and e[0] == crc:
                e[1] = now
                continue
            if e is None and len(self.heard) >= MAX_HEARD:
                self._expire(now)
                if len(self.heard) >= MAX_HEARD:
                    continue
            from fathom.link.session import parse_invite
            inv = parse_invite(data)
            if inv is not None and (inv[1] != mac or inv[2] not in games.IDS):
                inv = None  # another unit's address in it, or a game this unit lacks
            if inv is not None:
                inv = (inv[0], inv[2], inv[3])
            # a changed beacon is a new invitation (the unit looks for another game now)
            self.heard[mac] = [crc, now, inv, False]

    def _expire(self, now):
        while True:  # one at a time: a dict must not change under its loop, nor a copy be made
            gone = None
            for mac in self.heard:
                if ticks_diff(now, self.heard[mac][1]) >= HEARD_MS:
                    gone = mac
                    break
            if gone is None:
                return
            del self.heard[gone]  # stopped looking: its next invitation is asked again

    def _pick(self, now):
        self._expire(now)
        e = self.heard.get(self.shown)
        if e is None or e[2] is None or e[3]:
            self.shown = None
        if self.shown is None and ticks_diff(now, self.last_key) >= IDLE_MS:
            for mac, e in self.heard.items():
                if e[2] is not None and not e[3]:
                    self.shown = mac
                    self.since = now
                    break
        self.ready = self.shown is not None and ticks_diff(now, self.since) >= READ_MS

    # ---- screen -----------------------------------------------------------------------------
    def text(self, mac=None):
        mac = mac or self.shown
        name, gid, players = self.heard[mac][2]
        if name == self.app.settings["name"]:  # both units given one name: tell them apart
            from fathom.settings import told_apart
            name = told_apart(name, mac)
        title = games.declaration(gid).TITLE
        if players > 2:
            return "%s hosts a group of %d for %s." % (name, players, title)
        return "%s wants to play %s." % (name, title)

    def lines(self):
        """The home menu's text while an invitation covers it (its title stays)."""
        return ["fathom", self.text()] + (HINT.split("\n") if self.ready else [])

    def draw(self, d):
        """Over the home menu under its top bar."""
        small, rows = self.layout(d.width, d.height - CH)
        d.fill_rect(0, CH, d.width, d.height - CH, 0)
        y = CH
        step = TH if small else CH
        for line in rows:
            write(d, line, 0, y, 1, small)
            y += step

    def layout(self, w, h):
        """(small, lines) for a w x h box: the invitation, then (once READ_MS have passed) the
        keys that answer it; in the 3x5 font where 8x8 does not hold it."""
        for small in (False, True):
            cols = tiny_cols(w) if small else w // CH
            rows = (h + 1) // TH if small else h // CH
            msg = wrap(self.text(), cols)
            hint = wrap(HINT, cols) if self.ready else []
            if len(msg) + len(hint) <= rows:
                break
        keep = max(1, rows - len(hint))
        if len(msg) > keep:  # a long name on a small panel: the keys must still show
            msg = msg[:keep]
            msg[-1] = msg[-1][:cols - 1] + "~"
        return small, msg + hint


def ask_join(app, text, gid, players, mac):
    """OK on an invitation: joining asked once, the cursor on Not now, its keys taken only
    once the question has been up READ_MS (an OK, UP, OK typed for the menu joins nothing)."""
    from fathom.ui.confirm import ask
    ask(app, "Join?", text, "Join", lambda a: join_invite(a, gid, players, mac), "Not now",
        READ_MS)


def join_invite(app, gid, players, mac):
    """Join, answered to an invitation: the game's menu, as if the player had opened it, and
    over it the pairing with the inviting unit, chosen as soon as it is listed; a group's host
    is joined. The player presses nothing more until the code."""
    from fathom.flow.gamemenu import saved_options, game_menu
    from fathom.flow.pairing import start_link_game
    if app.settings.values.get("last") != gid:  # as opening the game by hand would
        app.settings.set("last", gid)
    app.push(game_menu(app, gid))
    start_link_game(app, gid, saved_options(app, gid), 2, players > 2, mac)
