# One short log line per PING event, from the event alone (events carry only public facts).
from fathom.games.ping import board as B

def _card(c, mode):
    steps, util = B.CARDS[c]
    if mode == B.MOVEMENT:
        return "MOVE %d" % steps
    if mode == B.UTILITY:
        return B.UTIL_NAMES[util]
    return "repair"


def describe(author, ev):
    who = "P%d " % (author + 1)
    tag = ev[0]
    try:
        if tag == "report":
            return who + "report at " + B.name(ev[1])
        if tag == "up":
            c, mode, sq = ev[1], ev[2], ev[3]
            s = who + _card(c, mode) + " " + B.name(sq)
            if mode == B.UTILITY and B.CARDS[c][1] == B.TORPEDO:
                s += " " + B.DIR_NAMES[ev[4]]
            return s + (" rep" if mode == B.MOVEMENT and ev[4] else "")
        if tag == "down":
            if ev[1] < 0 and not ev[2]:
                return who + "face-down card"
            s = who + "down"
            return s + (", rep " + B.name(ev[1]) if ev[1] >= 0 else "") + (" WIN" if ev[2] else "")
        if tag == "listen":
            return who + "LISTEN"
        if tag == "seen":
            s = who + "was " + _card(ev[1], ev[2])
            return s + (" at " + B.name(ev[3]) if ev[3] >= 0 else "")
        if tag == "hand":
            return who + "gave " + _card(ev[1], ev[2])
        if tag == "dive":
            return who + "DIVE: no effect"
        if tag == "hit":
            return who + "hit"
        if tag == "miss":
            return who + "missed"
        if tag == "shuffle":
            return who + "shuffles hand"
        if tag == "disable":
            return who + "disables %d,%d" % (ev[1] + 1, ev[2] + 1)
        if tag == "damage":
            return who + ("SUNK" if ev[1] else "damaged") + " at " + B.name(ev[2])
        if tag == "sk":
            return who + "deal key"
        if tag == "ss":
            return who + "shuffles %d-%d" % (ev[2] + 1, ev[2] + len(ev[3]) // 2)
        if tag == "so":
            return who + "opens %d card%s" % (len(ev[2]), "" if len(ev[2]) == 1 else "s")
        if tag == "foul":
            return who + "FOUL: bad card"
        if tag == "setup":
            return who + "ready"
        if tag == "concede":
            return who + "concedes"
    except (IndexError, TypeError, ValueError):
        pass
    return who + str(tag)
