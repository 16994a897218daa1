# What the game screens and the screens around a game share, with nothing that loads a screen:
# the labels of a choice, whether a partner is silent and its name. A leaf, so that the screens
# loaded when first shown (flow/gameend.py, gamelog, partner) and the one every game runs
# (gamebase) import it without importing each other.


def label(eng, runner, action):
    f = getattr(eng, "label", None)
    if f:
        s = runner.seat
        return f(s.pub, s.priv, s.player, action)
    return " ".join(str(x) for x in action) if isinstance(action, list) else str(action)


def setup_label(eng, runner, choice):
    f = getattr(eng, "setup_label", None)
    if f:
        s = runner.seat
        return f(s.pub, s.priv, s.player, choice)
    return label(eng, runner, choice)


def silent(runner):
    """True while a link peer of the game has sent nothing, not even a heartbeat, for the
    channel's LOST_MS: its unit left the game, was switched off or is out of range (the
    runner's gone() waits VANISH_MS more before a claim is allowed)."""
    if runner.result() is not None:
        return False
    if runner.left:  # it said so: no need to wait out the silence
        return True
    for p in runner.peers:
        if getattr(p, "state", None) == "lost":
            return True
    return False


def partner_name(runner, player=None):
    """'P2 (Bob)' in a game of two; in a group 'P3' when it is known who, else 'a partner'
    (its host relays for everyone)."""
    s = runner.seat
    if s.n != 2:
        return "a partner" if player is None else "P%d" % (player + 1)
    name = runner.meta.get("peer")
    who = "P%d" % (2 - s.player)
    return "%s (%s)" % (who, name) if name else who
