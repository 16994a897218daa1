# Pinned Down on the unit. The main page: distance, threat, the location, the highlighted
# choice's fight forecast and your fleet (the ship the choice touches drawn inverted), with the
# choice at the bottom. LEFT/RIGHT turn to the pages, where UP/DOWN scroll: your hand with each
# card's full text (and hands partners chose to show), every fleet with attachments, damage and
# lost ships, and the table (the jump options with their texts, or the fights with their power
# sums for the highlighted assignment, fight or effect, before anybody commits).
# Choices, UP/DOWN/OK and lines() on the main page keep the generic GameScreen semantics the
# test driver reads; the pages report '#' lines only, so the driver never plays from them.
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import fleet as F
from fathom.games.pinned_down.engine import GOAL
from fathom.games.pinned_down.fleet import SO, SC, SD, SA, SL, SK
from fathom.ui.play import GameScreen, describe
from fathom.ui.screen import CH, clip, cols, header, rows, wrap

try:
    from micropython import const
except ImportError:
    const = lambda x: x  # noqa: E731

MAIN = const(0)
HAND = const(1)
FLEET = const(2)
TABLE = const(3)
_PAGES = const(4)
_PAGE_NAMES = ("", "hand", "fleets", "table")

_PH = {"setup": "setup", "main": "main", "jump": "jump", "jconf": "jump?", "cloak": "cloak",
       "assign": "assign", "aconf": "assign?", "fight": "fight", "wrap": "wrap-up",
       "over": "over"}
_RES = {"win": "win", "dmg": "dmg", "over": "lost", "none": "-"}
_TYPE = {C.SHIP: "", C.CHAR: "character", C.EQUIP: "equipment", C.EFFECT: "effect"}

# a page line: (left text, right text, style): 0 plain, 1 inverted, 2 marked '>'
PLAIN, INV, MARK = 0, 1, 2


# ---- what the highlighted choice touches ---------------------------------------------------
def target_ship(pub, a):
    """The ship the choice acts on (deploy, boost, repair, overload, assign, cloak), or -1."""
    if not isinstance(a, list) or not a:
        return -1
    tag = a[0]
    if tag == "play" and len(a) >= 3 and type(a[2]) is int and pub["ph"] == "main":
        kws = C.get(a[1])[C.KW]
        if C.get(a[1])[C.TYPE] in (C.CHAR, C.EQUIP) or "REP" in kws or \
                [1 for k in kws if k.startswith("BO")]:
            return a[2]
        return -1
    if tag == "use":
        if a[2] < 0:
            return a[3] if len(a) > 3 else a[1]
        return a[1]
    if tag == "move":
        return a[3]
    if tag == "spare":
        return a[2]
    if tag == "def":
        return pub["fs"][len(pub["asg"])]
    if tag == "cloak" and pub["cq"]:
        return pub["cq"][0]
    return -1


def hand_card(a):
    """The hand card a choice plays, spares or discards, or None."""
    if isinstance(a, list) and len(a) > 1 and a[0] in ("play", "spare", "discard"):
        return a[1]
    return None


def preview(eng, pub, a):
    """The fights as they stand or as the highlighted choice would make them: [ships, foes,
    done]. While an assignment is being proposed only the attackers chosen so far have fights;
    the last ship's choice shows the engine's full build (leftover attackers joined)."""
    ph = pub["ph"]
    if ph == "assign":
        asg = list(pub["asg"])
        if isinstance(a, list) and a and a[0] == "def":
            asg.append(a[1])
        if asg and len(asg) == len(pub["fs"]):
            saved = pub["asg"], pub["fights"]
            try:  # the engine's own rule, on a borrowed pub, put back at once
                pub["asg"] = asg
                eng._build_fights(pub)
                return pub["fights"]
            finally:
                pub["asg"], pub["fights"] = saved
        out = []
        for f in range(len(pub["foes"])):
            ships = [pub["fs"][i] for i in range(len(asg)) if asg[i] == f]
            if ships:
                out.append([ships, [f], False])
        return out
    if ph in ("aconf", "fight"):
        return pub["fights"]
    return []


def hot_fight(pub, fights, a):
    """Index of the fight the choice is about (resolve it, an effect in it, the assigned
    attacker's), else the first fight still open, else -1."""
    if isinstance(a, list) and a:
        if a[0] == "fight":
            return a[1]
        if a[0] == "play" and pub["ph"] == "fight" and len(a) == 3 and type(a[2]) is int:
            return a[2]
        if a[0] == "def":
            for k in range(len(fights)):
                if a[1] in fights[k][1]:
                    return k
    for k in range(len(fights)):
        if not fights[k][2]:
            return k
    return -1


def effect_bonus(pub, me, a, fight):
    """Power the highlighted fight effect (Alpha Strike, Swarm Tactics) adds to this fight."""
    if not (isinstance(a, list) and a and a[0] == "play" and pub["ph"] == "fight"):
        return 0
    add = 0
    for k in C.get(a[1])[C.KW]:
        if k.startswith("FT") or k.startswith("FA"):
            n = int(k[2:])
            for s in fight[0]:
                ship = pub["ships"][s]
                if ship[SL] and not F.has_dmg(pub, s, "NB") and (
                        (k.startswith("FT") and ship[SO] == me)
                        or (k.startswith("FA") and F.is_acarr(ship[SC]))):
                    add += n
    return add


def sums(eng, pub, fight):
    """(player power, their battle destinies, enemy power, its destinies, ships) as the engine
    will count them at resolution, before the destiny cards are drawn."""
    ships = [s for s in fight[0] if pub["ships"][s][SL]]
    foes = [pub["foes"][f][0] for f in fight[1]]
    pp = pd = 0
    for s in ships:
        pp += F.power(pub, s, foes, ships)
        if "BD" in F.abilities(pub, s) and not F.has_dmg(pub, s, "NB"):
            pd += 1
    ep = ed = 0
    for f in fight[1]:
        ep += eng.foe_power(pub, f)
        if C.kw(pub["foes"][f][0], "BD"):
            ed += 1
    return pp, pd, ep, ed, len(ships)


def outcome(pp, ep, nships):
    if not nships:
        return "none"
    if pp > ep:
        return "win"
    return "over" if ep >= 2 * pp else "dmg"


def forecast(eng, pub, fight, bonus=0, wide=True):
    """('11+d vs 9', 'win') wide or ('11+d:9', 'win'): destinies still to draw shown as +d."""
    pp, pd, ep, ed, n = sums(eng, pub, fight)
    pp += bonus
    res = _RES[outcome(pp, ep, n)] if not fight[2] else "done"
    sep = " vs " if wide else ":"
    return "%d%s%s%d%s" % (pp, "+d" * pd, sep, ep, "+d" * ed), res


# ---- words ---------------------------------------------------------------------------------
def ship_words(pub, s):
    """(name, 'power dmg%') for a ship line; '~' marks a cloaked ship."""
    ship = pub["ships"][s]
    lost = F.structure_lost(pub, s)
    right = ("~" if ship[SK] else "") + str(F.power(pub, s))
    if lost:
        right += " %d%%" % lost
    name = C.get(ship[SC])[C.NAME]
    return name, right


def stats(cid):
    """The second line of a card in the hand: type, class, power/capacity, threat."""
    c = C.get(cid)
    t = c[C.TYPE]
    if t == C.SHIP:
        return "%s %d/%d" % (c[C.CLS], c[C.PW], c[C.CAP])
    words = _TYPE.get(t, "")
    if t == C.EQUIP and c[C.PW]:
        words += " +%d" % c[C.PW]
    return words


class PinnedDownScreen(GameScreen):
    def __init__(self, app, runner):
        GameScreen.__init__(self, app, runner)
        self.page = MAIN
        self.scroll = 0
        self._ck = None           # state the cached choices belong to
        self._ch = []
        self._bk = None           # state the cached main-page lines belong to
        self._body = []
        self._dk = None           # state the cached page document belongs to
        self._doc = []
        self._room = rows(app.hw.display) - 1

    # ---- choices: built once per event, not once per frame --------------------------------
    def choices(self):
        s = self.runner.seat
        key = (len(s.log), len(s.setup_choices), len(s.actions))
        if key != self._ck:
            self._ck = key
            self._ch = GameScreen.choices(self)
        return self._ch

    def current(self):
        ch = self.choices()
        if not ch:
            return None
        self.cursor = min(self.cursor, len(ch) - 1)
        return ch[self.cursor][0]

    def brief(self):
        """The status in a few characters: 'main', 'P2 jump?', 'wait'."""
        r = self.runner
        if r.problem:
            return "problem"
        s = r.seat
        t = s.to_move()
        if t is None:
            return "over" if s.result() is not None else "wait"
        if t[1] == "setup":
            return "set up" if t[0] == s.player else "P%d set up" % (t[0] + 1)
        ph = _PH.get(s.pub["ph"], s.pub["ph"])
        return ph if t[0] == s.player else "P%d %s" % (t[0] + 1, ph)

    # ---- keys ------------------------------------------------------------------------------
    def key(self, k):
        if k in ("LEFT", "RIGHT"):
            self.page = (self.page + (1 if k == "RIGHT" else -1)) % _PAGES
            self.scroll = 0
            self._dk = None
            if self.page in (HAND, TABLE):
                self.scroll = self._marked()
            return
        if self.page == MAIN:
            GameScreen.key(self, k)
            return
        doc = self.doc(self._width())
        last = max(0, len(doc) - self._room)
        if k == "UP":
            self.scroll = max(0, self.scroll - 1)
        elif k == "DOWN":
            self.scroll = min(last, self.scroll + 1)
        elif k == "OK" and self.page == HAND:
            nxt = [i for i in range(len(doc)) if doc[i][2] != PLAIN and i > self.scroll]
            self.scroll = min(last, nxt[0]) if nxt else 0
        elif k in ("OK", "BACK"):
            self.page = MAIN

    def _width(self):
        return cols(self.app.hw.display)

    def _marked(self):
        """The first marked line (the card the choice plays, the highlighted fight or jump)."""
        doc = self.doc(self._width())
        for i in range(len(doc)):
            if doc[i][2] == MARK:
                return i
        return 0

    # ---- the main page ---------------------------------------------------------------------
    def body(self, w):
        """[(left, right, style)] for the main page: distance and threat, the location (or the
        highlighted jump), the fight forecast, then the ships (the targeted one inverted)."""
        s = self.runner.seat
        key = (len(s.log), self.cursor, w)
        if key == self._bk:
            return self._body
        pub = s.pub
        wide = w >= 16
        a = self.current()
        out = [("dist %d/%d" % (pub["dist"], GOAL) if wide else "d%d/%d" % (pub["dist"], GOAL),
                ("thr %d" if wide else "t%d") % pub["threat"], PLAIN)]
        if isinstance(a, list) and a and a[0] == "jump":
            c = C.get(pub["lopts"][a[1]])
            out.append(("to " + c[C.NAME], "+%d" % c[C.PW], INV))
        elif pub["ph"] == "jconf" and pub["lopts"]:
            c = C.get(pub["lopts"][pub["prop"]])
            out.append(("to " + c[C.NAME], "+%d?" % c[C.PW], PLAIN))
        else:
            out.append(("@" + (C.get(pub["locs"][-1])[C.NAME] if pub["locs"] else "start"),
                        "", PLAIN))
        fights = preview(self.eng, pub, a)
        k = hot_fight(pub, fights, a)
        if k >= 0:
            text, res = forecast(self.eng, pub, fights[k], effect_bonus(
                pub, s.player, a, fights[k]), wide)
            out.append(("F%d %s" % (k + 1, text) if wide else text, res, PLAIN))
        elif pub["foes"]:
            out.append(("foes %d" % len(pub["foes"]), "pw %d" % sum(
                self.eng.foe_power(pub, f) for f in range(len(pub["foes"]))), PLAIN))
        hot = target_ship(pub, a)
        for i in F.alive(pub):
            if pub["ships"][i][SO] == s.player or i == hot:
                name, right = ship_words(pub, i)
                if pub["ships"][i][SO] != s.player:
                    name = "P%d %s" % (pub["ships"][i][SO] + 1, name)
                out.append((name, right, INV if i == hot else PLAIN))
        self._bk = key
        self._body = out
        return out

    def draw(self, d):
        if self.page != MAIN:
            self.draw_page(d)
            return
        s = self.runner.seat
        w = cols(d)
        ch = self.choices()
        a = self.current()
        count = "%d/%d" % (self.cursor + 1, len(ch)) if ch else ""
        left = self.brief()
        if w >= 16 and s.pub["turn"]:
            left = "T%d %s" % (s.pub["turn"], left)
        top_bar(d, left, count, self.app.link_state)
        n = rows(d) - 1
        label = wrap(ch[self.cursor][1], w - 1)[:2] if ch else []
        if not ch and s.log:  # nothing to choose: the newest event where the choice sits
            au, ev = s.log[-1]
            label = wrap(describe(self.eng, s, au, ev), w)[-2:]
        body = self.body(w)
        room = n - len(label)
        shown = body[:room]
        hot = [x for x in body[room:] if x[2] == INV]
        if hot and room > 1:  # the targeted ship always shows, in the last body row
            shown = shown[:room - 1] + hot[:1]
        y = CH
        for line in shown:
            row(d, y, line, w)
            y += CH
        y = d.height - len(label) * CH
        for i in range(len(label)):
            if ch:
                d.fill_rect(0, y, d.width, CH, 1)
                d.text((">" if i == 0 else " ") + label[i], 0, y, 0)
            else:
                d.text(label[i], 0, y, 1)
            y += CH
        if a is None and not label:
            d.text(clip("waiting", w), 0, d.height - CH, 1)

    # ---- pages -----------------------------------------------------------------------------
    def doc(self, w):
        s = self.runner.seat
        key = (self.page, len(s.log), self.cursor, w)
        if key != self._dk:
            self._dk = key
            self._doc = []  # the old one goes before the new one is built
            a = self.current()
            if self.page == HAND:
                self._doc = self.hand_doc(s, w, a)
            elif self.page == FLEET:
                self._doc = self.fleet_doc(s, w)
            else:
                self._doc = self.table_doc(s, w, a)
        return self._doc

    def hand_doc(self, s, w, a):
        out = []
        mark = hand_card(a)
        for cid in s.priv["hand"]:
            c = C.get(cid)
            out.append((c[C.NAME], "t%d" % c[C.THREAT], MARK if cid == mark else INV))
            mark = None if cid == mark else mark
            out.append((stats(cid), "", PLAIN))
            for part in wrap(C.text(cid), w):
                if part:
                    out.append((part, "", PLAIN))
        if not s.priv["hand"]:
            out.append(("(no cards)", "", PLAIN))
        pub = s.pub
        for p in range(pub["n"]):  # hands partners chose to show: public, listed by name
            sh = pub["shown"][p]
            if p == s.player or sh is None:
                continue
            out.append(("P%d showed" % (p + 1), "T%d" % sh[0], INV))
            for cid in sh[1]:
                out.append((" " + C.get(cid)[C.NAME], "t%d" % C.get(cid)[C.THREAT], PLAIN))
        return out

    def fleet_doc(self, s, w):
        pub = s.pub
        out = []
        order = [s.player] + [p for p in range(pub["n"]) if p != s.player]
        for p in order:
            out.append(("P%d %s" % (p + 1, pub["aff"][p]),
                        "h%d d%d" % (pub["hs"][p], pub["dn"][p]), INV))
            for i in range(len(pub["ships"])):
                ship = pub["ships"][i]
                if ship[SO] != p or not ship[SL]:
                    continue
                name, right = ship_words(pub, i)
                out.append((name, right, PLAIN))
                for at in ship[SA]:
                    who = "" if at[0] == p else " P%d" % (at[0] + 1)
                    out.append((" +" + C.get(at[1])[C.NAME], who, PLAIN))
                for dm in ship[SD]:
                    out.append((" x" + C.get(dm)[C.NAME], "%d%%" % C.get(dm)[C.CLS], PLAIN))
            for cid in pub["dest"][p]:
                out.append((" lost " + C.get(cid)[C.NAME], "", PLAIN))
        return out

    # The table page in three parts: on a stock install each function's bytecode is one heap
    # block when the module loads, and the page in one function made a 1,045 B block.
    def table_doc(self, s, w, a):
        pub = s.pub
        ph = pub["ph"]
        out = [("threat %d" % pub["threat"] if w >= 16 else "thr %d" % pub["threat"],
                "d%d/%d" % (pub["dist"], GOAL), INV)]
        if ph in ("jump", "jconf"):
            pick = a[1] if isinstance(a, list) and a and a[0] == "jump" else pub["prop"]
            for i in range(len(pub["lopts"])):
                c = C.get(pub["lopts"][i])
                out.append((c[C.NAME], "+%d" % c[C.PW], MARK if i == pick else PLAIN))
                for part in wrap(C.text(pub["lopts"][i]), w):
                    out.append((part, "", PLAIN))
            return out
        fights = preview(self.eng, pub, a)
        self._fight_lines(out, s, w, a, fights)
        self._table_rest(out, pub, a, fights)
        return out

    def _fight_lines(self, out, s, w, a, fights):
        """Each fight's sums and outcome, its ships and attackers; then attackers in none."""
        pub = s.pub
        wide = w >= 16
        hot = hot_fight(pub, fights, a)
        for k in range(len(fights)):
            fight = fights[k]
            bonus = effect_bonus(pub, s.player, a, fight) if k == hot else 0
            text, res = forecast(self.eng, pub, fight, bonus, wide)
            st = MARK if k == hot else PLAIN
            if wide:
                out.append(("F%d %s" % (k + 1, text), res, st))
            else:  # nine columns: the number and outcome, then the sums
                out.append(("F%d" % (k + 1), res, st))
                out.append((text, "", PLAIN))
            for i in fight[0]:
                if pub["ships"][i][SL]:
                    name, right = ship_words(pub, i)
                    out.append((" " + name, right, PLAIN))
            for f in fight[1]:
                out.append((" -" + C.get(pub["foes"][f][0])[C.NAME],
                            str(self.eng.foe_power(pub, f)), PLAIN))
        used = []
        for fight in fights:
            used.extend(fight[1])
        left = [f for f in range(len(pub["foes"])) if f not in used and not pub["foes"][f][1]]
        if left:  # while assigning: not yet in a fight; later: discarded at wrap-up
            out.append(("unmatched" if pub["ph"] == "assign" else "attackers", "", INV))
            for f in left:
                out.append((" -" + C.get(pub["foes"][f][0])[C.NAME],
                            str(self.eng.foe_power(pub, f)), PLAIN))

    def _table_rest(self, out, pub, a, fights):
        """Ships still to assign, the last fight, table tokens and the locations passed."""
        if pub["ph"] == "assign":
            rest = pub["fs"][len(pub["asg"]) + (1 if isinstance(a, list) and a and
                                                a[0] == "def" else 0):]
            if rest:
                out.append(("to assign", "", INV))
                for i in rest:
                    name, right = ship_words(pub, i)
                    out.append((" " + name, right, PLAIN))
        if pub["last"]:
            k, pp, ep, res = pub["last"]
            out.append(("last F%d" % (k + 1), "%d:%d %s" % (pp, ep, _RES[res]), PLAIN))
        if not fights and not pub["foes"]:
            out.append(("no attackers", "", PLAIN))
        for t in pub["tbl"]:
            out.append((C.get(t[0])[C.NAME], "x%d" % t[1], PLAIN))
        for cid in pub["locs"]:
            out.append(("@" + C.get(cid)[C.NAME], "+%d" % C.get(cid)[C.PW], PLAIN))

    def draw_page(self, d):
        w = cols(d)
        doc = self.doc(w)
        self._room = rows(d) - 1
        self.scroll = max(0, min(self.scroll, len(doc) - self._room))
        title = self.page_title(w)
        more = ("^" if self.scroll > 0 else "") + ("v" if self.scroll + self._room < len(doc)
                                                   else "")
        top_bar(d, title, more, self.app.link_state)
        y = CH
        for line in doc[self.scroll:self.scroll + self._room]:
            row(d, y, line, w)
            y += CH

    def page_title(self, w):
        s = self.runner.seat
        if self.page == HAND:
            n = len(s.priv["hand"])
            return "Hand %d deck %d" % (n, s.pub["dn"][s.player]) if w >= 16 else "Hand %d" % n
        if self.page == FLEET:
            return "Fleets" if s.pub["n"] > 1 else "Fleet"
        return "Jump" if s.pub["ph"] in ("jump", "jconf") else "Fights"

    # ---- semantic text ---------------------------------------------------------------------
    def lines(self):
        w = self._width()  # the drawn width: the same cached lines serve both
        if self.page != MAIN:
            return ["%s %s" % (self.title, _PAGE_NAMES[self.page])] + [
                "# " + (("> " if st == MARK else "") + l + " " + r).rstrip()
                for l, r, st in self.doc(w)]
        out = GameScreen.lines(self)
        info = ["# " + (l + " " + r).rstrip() for l, r, _st in self.body(w)]
        k = 1
        while k < len(out) and out[k].startswith("| "):
            k += 1
        return out[:k] + info + out[k:]


def top_bar(d, left, right, link_state):
    """The title bar with a right-aligned part (choice count, scroll marks) kept whole."""
    room = cols(d) - (len(right) + 1 if right else 0) - (2 if link_state else 0)
    header(d, left[:max(1, room)], link_state)
    if right:
        x = d.width - (9 if link_state else 0) - len(right) * CH
        d.fill_rect(x - 1, 0, len(right) * CH + 1, CH, 1)
        d.text(right, x, 0, 0)


def row(d, y, line, w):
    """One page line: the left text clipped to leave room for the right one, right-aligned."""
    left, right, st = line
    c = 1
    if st == INV:
        d.fill_rect(0, y, d.width, CH, 1)
        c = 0
    elif st == MARK:
        left = ">" + left
    if right:
        right = right[:max(0, w - 4)]  # the left text keeps three columns and a space
        d.text(clip(left, w - len(right) - 1), 0, y, c)
        d.text(right, d.width - len(right) * CH, y, c)
        return
    d.text(clip(left, w), 0, y, c)


def screen(app, runner):
    return PinnedDownScreen(app, runner)
