# Pairing and game agreement on screen: pick a nearby unit (ESP-NOW) or use the cable (UART),
# compare the six-digit code, agree on the game, then hand over to the game screen.
# Games for more than two: the proposer hosts a group (chooses how many players, pairs with
# each partner in turn); the others join it. See docs/PROTOCOL.md 'Groups'.
from fathom import games
from fathom.games.seat import Seat
from fathom.hal import clock
from fathom.hal.clock import ticks_diff
from fathom.link import entropy
from fathom.link.channel import LEAVE_MS
from fathom.link.connect import (CONFIRM, DECLINED, DISCOVER, FAILED, GROUP, HANDSHAKE, LEAVING,
                                 LEFT, OFFER, READY, SETUP, Connector, game_opts)
from fathom.link.peer import MAX_PARTNERS, open_transport
from fathom.link.frame import VERSION
from fathom.runner import Runner
from fathom.ui.dialog import Message
from fathom.ui.listview import ListView
from fathom.ui.screen import CH, Screen
from fathom.ui.textpage import TextPage
from fathom.ui.topbar import top_bar

READ_MS = 1000    # a code is on the screen this long before OK can say it matches: an OK
#                   pressed for the screen before it (an invitation's) compares nothing
HINT_MS = 8000    # alone this long (no unit listed, no answer): the screen says what to check
JAM_SAY = 3       # frames not from this exchange (forged, replayed) before a slow pairing
                  # blames the radio noise, not the partner
_LINK = {"espnow": "ESP-NOW", "uart": "cable (UART)"}
# What only pairing runs, forgotten once the game starts (PairScreen._start): this screen, the
# menu it came from, and the connector with every part it imports (discovery, handshake, Diffie-
# Hellman, group keys). It is freed only if the game keeps no function of it: a function holds
# its module's globals, so whatever goes on into the game (a channel's sender) comes from
# modules the game keeps (link/peer.py).
PAIRING_CODE = ("fathom.flow.pairing", "fathom.flow.gamemenu", "fathom.link.lent",
                "fathom.link.connect", "fathom.link.discovery", "fathom.link.handshake",
                "fathom.link.group", "fathom.link.groupkeys", "fathom.link.session",
                "fathom.link.entropy")


def start_link_game(app, gid, opts, players=None, join=False, invite=None):
    """The pairing screen for game gid (None: lent as the bot opponent). invite: the MAC of
    the unit whose invitation the player took (flow/invite.py): it is chosen once listed."""
    if gid is not None and players is None and not join:
        # as many as the game takes, within what a host's link carries (MAX_PARTNERS)
        top = min(games.declaration(gid).PLAYERS[1], MAX_PARTNERS + 1)
        if top > 2:
            app.push(_size_menu(app, gid, opts, top))
            return
    kind = app.settings["link"]
    try:
        t = open_transport(kind, app.hw.profile)
    except Exception as e:
        app.push(Message(app, "Link", "The %s link could not start: %s" % (kind, e)))
        return
    if players is not None and players > 2 and kind != "espnow":
        t.close()
        app.push(Message(app, "Link", "A group of %d needs ESP-NOW: a cable joins two." % players))
        return
    again = (gid, opts, players, join)  # "Look again" after a decline or a partner gone
    if gid is None:  # lent as the bot opponent: it joins whoever hails it, groups too
        from fathom.link.lent import LentConnector
        c = LentConnector(t, kind, app.settings["name"], app.hw.storage, clock.now_ms())
    else:
        # an invitation to two: take the inviter's offer (its options), proposing nothing;
        # the beacons still look for its game, so the inviter, listing, takes this unit's hello
        mine = gid if invite is None or join else None
        c = Connector(t, kind, app.settings["name"], app.hw.storage, mine, opts, clock.now_ms(),
                      players or 2, join, gid)
    # Pairing a group is a host's largest moment (a channel and a handshake per partner): the
    # home menu goes now, not only once the game shows; BACK, back down, builds it again.
    app.leave_home(gid)
    app.push(PairScreen(app, c, invite, gid, again))


def _size_menu(app, gid, opts, top):
    """How many play: the host of a group chooses; the others join it."""
    from fathom.ui.menu import Item, Menu

    def go(players, join=False):
        def f(a):
            a.pop()
            start_link_game(a, gid, opts, players, join)
        return f
    items = [Item("2 players", go(2))]
    room = _room()
    for n in range(3, top + 1):
        need = host_heap(gid, n)
        items.append(Item("%d: host" % n, go(n) if need <= room else _too_many(n, need, room)))
    items.append(Item("Join a group", go(2, True)))
    return Menu(app, "Players", items)


def host_heap(gid, n):
    """The heap a host of n players of gid needs (its declaration's HOST_HEAP, measured): a
    channel, a feed and the end-to-end tags per partner."""
    cost = getattr(games.declaration(gid), "HOST_HEAP", None)
    return 0 if cost is None else cost[0] + cost[1] * (n - 1)


def _room():
    """What a host's game may peak at on this unit: five sixths of its heap, the rest for
    the fragmentation of a long game (80 KB of a 96 KB heap)."""
    import gc
    if not hasattr(gc, "mem_free"):
        return 1 << 30  # CPython (host tools, tests): the heap is not what limits a group
    return (gc.mem_alloc() + gc.mem_free()) * 5 // 6


def _too_many(n, need, room):
    """A group this unit cannot host: refused before anyone pairs, not out of memory later."""
    def f(a):
        a.push(Message(a, "Players", "Hosting %d needs about %d KB and this unit has room "
                       "for %d KB. Host fewer, or let a unit with more memory host while "
                       "this one joins." % (n, (need + 1023) // 1024, room // 1024)))
    return f


def wait_as_bot(app):
    """Opponent mode: take whatever game a partner proposes and let the bot play it."""
    start_link_game(app, None, None)


class PairScreen(Screen):
    title = "Link"

    def __init__(self, app, conn, invite=None, gid=None, again=None):
        Screen.__init__(self, app)
        self.c = conn
        self.invite = invite        # the inviting unit's MAC until it is chosen
        self.want = gid if invite is not None else None  # the game it invited to
        self.again = again
        self.page = TextPage()    # what is happening, over
        self.view = ListView()    # the units to choose from (discover only)
        self.now = clock.now_ms()
        self.bot = app.settings["opponent"] != "off"
        self.hint = (False, False, False)  # (waited past HINT_MS, partner quiet, code read)
        self.code_ok = False        # the player saw the group code and said it matches
        self.at = None              # the MAC of the unit under the list's cursor

    def tick(self, now):
        self.now = now
        changed = self.c.tick(now)
        st = self.c.state
        if st == LEAVING:
            # the "bye" (or the decline) leaves only on a poll: close once it is acknowledged
            if self.c.delivered() or ticks_diff(now, self.c.since) >= LEAVE_MS:
                self._close()
                return True
            return False
        if st == DISCOVER and self.invite is not None:
            for m in self.c.nearby(now):
                if m[0] == self.invite:
                    self.invite = None
                    self.c.choose(m[0], now)
                    return True
        if self.bot:
            # A lent unit answers everything but a new partner's code: its owner confirms
            # that once (then the pairing is remembered), or any stranger could play it.
            self.c.autopilot(now, code=False)
        if st == READY and self.want is not None:
            s = self.c.setup
            if s is not None and s.game != self.want:  # not what the player said yes to
                self.c.fail("%s offered %s, not %s" % (
                    self.c.partner() or "the other unit", _title(s.game), _title(self.want)))
                return True
            self.want = None
        if st == READY:
            if self._ask_code():
                read = self._read()
                if read != self.hint[2]:   # its keys appear: redraw
                    self.hint = (False, False, read)
                    return True
                return changed
            self._start()
            return True
        # a hint appears once its wait is over, a silence once the channel calls it lost
        # (and the list changes in discovery): redraw when either turns, not every loop
        hint = (self._waited() >= HINT_MS, self.c.quiet(), self._read())
        if hint != self.hint:
            self.hint = hint
            changed = True
        return changed or st == DISCOVER

    def _ask_code(self):
        """A group's code waits for its player's OK: one code on every screen is what shows
        no host sat in the middle of the partners' keys (docs/PROTOCOL.md, section 9). A
        lent unit has nobody to compare it: it plays on."""
        return self.c.group() > 2 and self.c.group_code() is not None and not self.bot \
            and not self.code_ok

    def _near(self):
        """The units listed, by name then address, the cursor on the unit it was on: units
        come and go as their beacons do, and the row under a player's thumb must not turn
        into another unit (nor the key that picks it choose one)."""
        near = sorted(self.c.nearby(self.now), key=lambda m: (m[1], m[0]))
        v = self.view
        for i in range(len(near)):
            if near[i][0] == self.at:
                v.cursor = i
                return near
        if near:  # first shown, or its unit gone: the row the cursor is on now
            v.cursor = min(v.cursor, len(near) - 1)
            self.at = near[v.cursor][0]
        return near

    def _read(self):
        """The code on the screen has been there READ_MS: OK may now say it matches."""
        return ticks_diff(self.now, self.c.since) >= READ_MS

    def _waited(self):
        """How long the current state has lasted, capped at HINT_MS (a wrapping clock)."""
        w = ticks_diff(self.now, self.c.since)
        return HINT_MS if w >= HINT_MS else max(0, w)

    def _start(self):
        c, app = self.c, self.app
        s = c.setup
        game = s.game if s is not None else c.gid
        eng = games.engine(game)
        opts = eng.options(game_opts(s.opts if s is not None else c.opts))
        n = c.group()
        seat = Seat(eng, opts, n, c.seed, c.player, entropy.token(16))
        meta = {"vs": "link", "peer": ", ".join(c.partner_names()), "link": c.kind}
        if self.bot:
            meta["autoplay"] = app.settings["opponent"]
        peers = c.peers(app.hw.storage)
        # the host of a group is the hub of a star: it relays between its partners
        runner = Runner(seat, peers, app.hw.storage, game, meta, relay=len(peers) > 1)
        runner.save()
        app.pop()
        from fathom.flow.play import show
        show(app, runner)
        # Pairing is over: its code leaves the heap with the last reference; the next
        # pairing imports it again
        from fathom import forget
        for m in PAIRING_CODE:
            forget(m)

    def _text(self):
        c = self.c
        st = c.state
        who = c.partner() or "the other unit"
        alone = self._waited() >= HINT_MS
        if st == DISCOVER:
            near = self._near()
            head = "Choose a unit:"
            if c.players > 2:
                head = "Choose a unit %d/%d:" % (len(c.partners) + 1, c.players - 1)
            if not near:
                if alone and not c.partners:
                    return ["No unit found yet.", "Is the other unit on", "'vs other unit' too,",
                            "its link %s?" % _LINK[c.kind], "(Settings > Link)", "BACK: leave"], []
                return [head if c.partners else "Looking for", "units nearby...",
                        "This unit is", "'%s'." % c.name], []
            return [head], [_entry(near, i) for i in range(len(near))]
        if c.quiet() and st in (HANDSHAKE, CONFIRM, SETUP, GROUP, OFFER):
            return ["%s stopped answering:" % who, "left, switched off", "or out of range.",
                    "BACK: leave"], []
        if alone and c.jammed >= JAM_SAY and st in (HANDSHAKE, CONFIRM) and (
                st == HANDSHAKE or c.confirmed()):
            # a bystander's frames are ignored, never obeyed: they can only slow the pairing
            return ["Radio noise: %d" % c.jammed, "frames not from", "%s ignored." % who,
                    "Still connecting...", "BACK: leave"], []
        if st == HANDSHAKE:
            if c.hailed is not None:  # nobody chose here: say who did
                return ["%s chose" % who, "this unit.", "Connecting..."], []
            if not alone or c.heard():
                return ["Connecting..."], []
            if c.kind == "uart":
                return ["No answer on the cable.", "Is it plugged in, the", "other unit on",
                        "'vs other unit' too,", "its link the cable?", "BACK: leave"], []
            return ["%s has not chosen" % who, "this unit: on its list", "it must pick",
                    "'%s'." % c.name, "BACK: leave"], []
        if st == CONFIRM:
            done = c.confirmed()
            if done:
                text = ["Code " + c.code(), "waiting for", "the other unit"]
            else:   # the keys once the code could be read
                text = ["Code " + c.code(), "Same on both?"] + (
                    ["OK yes BACK no"] if self._read() else [])
            if c.hailed is not None:  # below the keys: a small panel shows those first
                text.append("%s chose this unit." % who)
            return text, []
        if st == SETUP:
            if c.gid is None or c.join:
                return ["Waiting for", who, "to offer a game..."], []
            # not the game's title: the game screen's title is what says the game started
            return ["Game offered", "to %s:" % who, "waiting for", "an answer..."], []
        if st == GROUP:
            if c.players > 2:  # the host: the partners' key values are still coming in
                return ["Agreeing group", "keys..."], []
            return ["In a group of %d" % c.group(), "waiting for", "the host..."], []
        if st == READY and self._ask_code():
            g = c.group_code()
            return ["Group code " + g[:3] + " " + g[3:], "Same on every unit?"] + (
                ["OK play BACK leave"] if self._read() else []), []
        if st == OFFER:
            game, opts = c.offer()
            desc = " ".join("%s=%s" % (k, opts[k]) for k in sorted(game_opts(opts)))
            if c.group() > 2:
                desc = "%d players %s" % (c.group(), desc)
            return ["%s offers" % who, _title(game), desc, "OK accept BACK no"], []
        if st == DECLINED:
            return ["%s declined" % who, _title(c.gid) + "."], list(_DECLINED)
        if st == LEFT:
            return ["%s left" % who, "the pairing."], list(_LEFT)
        if st == LEAVING:
            return ["Telling %s..." % who], []
        if st == FAILED:
            return ["Link failed:"] + [c.error or "?"], []
        return [st], []

    def draw(self, d):
        top_bar(d, self.title, None)
        text, choices = self._text()
        self.page.set("\n".join(text))
        h = d.height - CH
        if choices:  # the text above, in as few rows as it takes, at least two for the list
            n = len(self.page.lines(d.width, h - 2 * CH))
            th = min(n * CH, max(CH, h - 2 * CH))
            self.page.draw(d, 0, CH, d.width, th)
            self.view.set(choices)
            self.view.draw(d, 0, CH + th, d.width, h - th)
        else:
            self.page.draw(d, 0, CH, d.width, h)

    def lines(self):
        text, choices = self._text()
        return [self.title] + text + [(">" if i == self.view.cursor else " ") + n
                                      for i, n in enumerate(choices)]

    def key(self, k):
        c = self.c
        st = c.state
        if k in ("LEFT", "RIGHT"):  # the text, when a small panel cannot show all of it
            self.page.key("UP" if k == "LEFT" else "DOWN")
            return
        if st == LEAVING:
            if k == "BACK":  # a second BACK does not wait for the partner's ack
                self._close()
        elif st == DISCOVER:
            near = self._near()
            v = self.view
            if k in ("UP", "DOWN") and near:
                v.set(near)   # only its length counts for a move
                v.key(k)
                self.at = near[v.cursor][0]
            elif k == "OK" and near:
                c.choose(near[v.cursor][0], self.now)
            elif k == "BACK":
                self._leave()
        elif st == READY:
            if k == "OK" and self._read():
                self.code_ok = True   # the next tick starts the game
            elif k == "BACK":         # codes differ: the host is in the middle, play nothing
                self._close()
        elif st == CONFIRM:
            if k == "OK" and self._read():
                c.confirm(True)
            elif k == "BACK":
                c.confirm(False)
        elif st == OFFER:
            if k == "OK":
                c.accept(True)
            elif k == "BACK":
                self._leave()
        elif st in (DECLINED, LEFT):
            v = self.view
            v.set(_DECLINED if st == DECLINED else _LEFT)
            if v.key(k):
                return
            if k == "OK":
                self._after(v.labels[v.cursor])
            elif k == "BACK":
                self._close()
        elif k == "BACK":
            self._leave()
        elif st == FAILED and k == "OK":
            self._close()

    def _after(self, what):
        """A declined offer or a partner gone: the player's next step."""
        app = self.app
        self._close()
        if what == "Other game":
            app.home()
        elif what == "Look again":
            c = self.c
            start_link_game(app, *(self.again or (c.gid, c.opts, c.players, c.join)))
        # "Change options": the game's menu, under this screen, has them

    def _leave(self):
        """BACK: tell the partner first (the screen closes once it is told, see tick)."""
        if self.c.state == FAILED or not self.c.leave():
            self._close()

    def _close(self):
        self.c.t.close()
        self.app.pop()


_DECLINED = ("Change options", "Other game", "Look again")
_LEFT = ("Look again", "Back")


def _title(game):
    try:
        return games.declaration(game).TITLE
    except KeyError:  # a game this unit's firmware does not have: the offer says so
        return game + " (unknown here)"


def _entry(near, i):
    """A unit in the list: its name, with the end of its address when names repeat."""
    from fathom.settings import told_apart
    mac, name, v = near[i]
    for j in range(len(near)):
        if j != i and near[j][1] == name:
            name = told_apart(name, mac)
            break
    return name + ("" if v == VERSION else " (v%d)" % v)
