# Pinned Down: short words for the log screen and the choice list (the UI scrolls long ones).
from fathom.games.pinned_down import cards as C
from fathom.games.pinned_down import schema as K

_SHORT = {"yes": "agree", "no": "object", "ready": "ready", "pass": "pass", "keep": "keep hand",
          "show": "show hand"}
_RES = {"win": "won", "dmg": "damaged", "over": "overpowered", "none": "no ships"}


def name(cid):
    return C.get(cid)[C.NAME]


def ship(pub, s):
    return name(pub[K.SHIPS][s][1])


def foe(pub, f):
    return name(pub[K.FOES][f][0])


def action(pub, a):
    tag = a[0]
    if tag in _SHORT:
        return _SHORT[tag]
    if tag == "play":
        c = C.get(a[1])
        if len(a) == 2:
            return "play " + c[C.NAME]
        kws = c[C.KW]
        if c[C.TYPE] in (C.CHAR, C.EQUIP) or [1 for k in kws if k.startswith("BO")]:
            return "%s>%s" % (c[C.NAME], ship(pub, a[2]))
        if "PKL" in kws:
            top = name(pub[K.LOCATION_DECK][0]) if pub[K.LOCATION_DECK] else "-"
            return "%s: %s %s" % (c[C.NAME], top, "to bottom" if a[2] else "stays")
        if "REP" in kws:
            return "%s %s:%s" % (c[C.NAME], ship(pub, a[2]), name(pub[K.SHIPS][a[2]][2][a[3]]))
        if "RET" in kws or "PDS" in kws:
            return "%s: %s" % (c[C.NAME], name(a[2]))
        return "%s fight %d" % (c[C.NAME], a[2] + 1)
    if tag == "use":
        s = pub[K.SHIPS][a[1]]
        if a[2] < 0:
            if len(a) == 3:
                return "overload " + name(s[1])
            return "%s repairs %s" % (name(s[1]), ship(pub, a[3]))
        who = name(s[3][a[2]][1])
        if C.kw(s[3][a[2]][1], "PKA"):
            top = name(pub[K.ATTACK_DECK][0]) if pub[K.ATTACK_DECK] else "-"
            return "%s: %s %s" % (who, top, "to bottom" if a[3] else "stays")
        if isinstance(a[3], str):
            return "%s takes %s" % (who, name(a[3]))
        return "%s repairs %s" % (who, name(s[2][a[3]]))
    if tag == "move":
        return "%s>%s" % (name(pub[K.SHIPS][a[1]][3][a[2]][1]), ship(pub, a[3]))
    if tag == "spare":
        return "spare %s>%s" % (name(a[1]), ship(pub, a[2]))
    if tag == "jump":
        c = C.get(pub[K.JUMP_OPTIONS][a[1]])
        return "jump %s d%d" % (c[C.NAME], c[C.PW])
    if tag == "cloak":
        return "cloak" if a[1] else "fight"
    if tag == "def":
        f = pub[K.FOES][a[1]]
        return "%s vs %s %d" % (ship(pub, pub[K.FIGHTERS][len(pub[K.ASSIGNED])]), name(f[0]),
                                C.get(f[0])[C.PW])
    if tag == "fight":
        return "resolve fight %d" % (a[1] + 1)
    if tag == "discard":
        return "discard " + name(a[1])
    return tag


def event(pub, author, e):
    """Called after the event was applied: the line describes what was sent."""
    tag = e[0]
    who = "P%d " % (author + 1)
    if tag == "show":
        return who + "shows %d cards" % len(e[1])
    if tag == "play":
        return who + "plays " + name(e[1])
    if tag == "fight" and pub.get(K.LAST_FIGHT):
        k, pp, ep, res = pub[K.LAST_FIGHT]
        return "fight %d: %d vs %d %s" % (k + 1, pp, ep, _RES[res])
    if tag in ("yes", "no", "ready", "pass", "keep"):
        return who + _SHORT[tag]
    if tag == "discard":
        return who + "discards " + name(e[1])
    if tag == "jump":
        return who + "proposes a jump"
    if tag == "def":
        return who + "assigns a ship"
    return who + tag


_NEWS = {"ready": "ready", "pass": "passed", "keep": "kept the hand", "yes": "agreed",
         "no": "objected"}


def news(pub, me, author, e):
    """What just happened, in words, for the player at seat `me` ("You" or "P2"), told as done
    (never to be read as advice); called after the event was applied, so it reads the result
    (a fight's sums, the new location). A card that raises the threat says by how much."""
    tag = e[0]
    who = "You" if author == me else "P%d" % (author + 1)
    if tag == "setup":
        return "You are P%d of %d" % (me + 1, pub[K.PLAYER_COUNT]) if pub[K.PLAYER_COUNT] > 1 else "Solo: you are P1"
    if tag == "fight" and pub.get(K.LAST_FIGHT):
        k, pp, ep, res = pub[K.LAST_FIGHT]
        return "Fight %d: %d vs %d, %s" % (k + 1, pp, ep, _RES[res])
    if tag == "play":
        t = C.get(e[1])[C.THREAT]
        return "%s played %s%s" % (who, name(e[1]),
                                   ": threat +%d, now %d" % (t, pub[K.THREAT]) if t else "")
    if tag == "jump":
        return "%s proposed a jump to %s" % (who, name(pub[K.JUMP_OPTIONS][e[1]])) \
            if pub[K.JUMP_OPTIONS] else "Jumped to %s" % name(pub[K.LOCATIONS][-1])
    if tag == "yes" and pub[K.PHASE] not in ("jconf", "aconf"):   # the last agreement
        return "%s agreed: %s" % (who, "fights set" if pub[K.PHASE] == "fight" else
                                  "jumped to " + name(pub[K.LOCATIONS][-1]))
    if tag == "ready":
        return "%s %s ready" % (who, "are" if author == me else "is")
    if tag in _NEWS:
        return "%s %s" % (who, _NEWS[tag])
    if tag == "discard":
        return "%s discarded %s" % (who, name(e[1]))
    if tag == "spare":
        return "%s spared %s" % (who, name(e[1]))
    if tag == "show":
        return "%s showed the hand" % who
    if tag == "cloak":
        return "%s %s" % (who, "cloaked" if e[1] else "stayed to fight")
    if tag == "def":
        return "%s assigned a ship vs %s" % (who, foe(pub, e[1])) \
            if e[1] < len(pub[K.FOES]) else "%s assigned a ship" % who
    if tag in ("use", "move"):
        return "%s %s" % (who, "moved crew" if tag == "move" else "used a power")
    if tag == "concede":
        return "%s conceded" % who
    return "%s: %s" % (who, tag)
