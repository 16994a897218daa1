# A game's menu: how to play, play against another unit or a bot, the game's options, resume a
# saved game.

from fathom import games
from fathom.games.base import LINK_ONLY, local_options, option_text
from fathom.games.bots import levels
from fathom.link import entropy
from fathom.ui.menu import Item, Menu

HOW_TO = "How to play"


def saved_options(app, gid):
    """The game's options as this unit last set them (the defaults if never, or if a firmware
    with other options saved them)."""
    key = "opts_" + gid
    saved = app.settings.values.get(key)
    try:
        return games.options(gid, saved if isinstance(saved, dict) else None)
    except ValueError:  # saved by a firmware whose options differed: the defaults
        return games.options(gid)


def game_menu(app, gid, cursor=None):
    decl = games.declaration(gid)
    opts = saved_options(app, gid)
    items = []
    from fathom.flow.play import saved_game_of
    if saved_game_of(app) == gid:
        items.append(Item("Resume game", lambda a: _resume(a)))
    if decl.PLAYERS[0] == 1:  # cooperative: alone, with a partner's unit, or with a bot partner
        verb = "with"
        items.append(Item("Solo", _start_bot(gid, opts, None, 1, "Solo")))
    else:
        verb = "vs"
    label = verb + " other unit"
    items.append(Item(label, _start_link(gid, opts, label)))
    # the rules sit between the two ways to play: a game never started here opens on them,
    # one press from a partner's unit (UP) and from the bot (DOWN)
    items.append(Item(HOW_TO, _how_to(gid, decl.TITLE)))
    for level in levels(gid):
        label = "%s bot: %s" % (verb, level)
        items.append(Item(label, _start_bot(gid, opts, level,
                                            2 if verb == "with" else decl.PLAYERS[0], label)))
    starts = len(items)
    for o in decl.OPTIONS:
        key, label = o[0], o[1]
        if key in LINK_ONLY:
            label += " (link)"   # against the bot or solo it is off: both seats are here
        items.append(Item(label, _cycle(gid, key, o[2], len(items)), True,
                          option_text(o, opts[key])))
    if cursor is None:
        cursor = _start_cursor(app, gid, items, starts)
    return Menu(app, decl.TITLE, items, cursor)


def _start_cursor(app, gid, items, starts):
    """Where a player most likely goes: a saved game's Resume, else the way they started this
    game last time, else (a game never started here) How to play: OK from the home menu then
    OK again opens the rules, never a game the player did not choose."""
    if items[0].label == "Resume game":
        return 0
    last = (app.settings.values.get("starts") or {}).get(gid)
    for i in range(starts):
        if items[i].label == last:
            return i
    for i in range(starts):
        if items[i].label == HOW_TO:
            return i


def _remember(app, gid, label):
    starts = app.settings.values.get("starts") or {}
    if starts.get(gid) != label:   # written only when it changes
        starts = dict(starts)      # never the defaults' own dict
        starts[gid] = label
        app.settings.set("starts", starts)


def _how_to(gid, title):
    def go(app):
        from fathom.ui.dialog import Message, show_help
        try:
            show_help(app, title, "games/%s/help.txt" % gid)
        except OSError:   # a game that ships no help page: say so, do not fall over
            app.push(Message(app, title, "No help page for this game on this unit."))
    return go


def _cycle(gid, key, choices, index):
    def go(app):
        opts = saved_options(app, gid)
        i = choices.index(opts[key]) if opts[key] in choices else -1
        opts[key] = choices[(i + 1) % len(choices)]
        app.settings.values["opts_" + gid] = opts
        app.settings.set("opts_" + gid, opts)
        app.replace(game_menu(app, gid, index))
    return go


def _start_bot(gid, opts, level, players, label):
    def go(app):
        _remember(app, gid, label)
        from fathom.flow.play import start_vs_bot
        start_vs_bot(app, gid, local_options(opts), level, entropy.token(16), players)
    return go


def _start_link(gid, opts, label):
    def go(app):
        _remember(app, gid, label)
        from fathom.flow.pairing import start_link_game
        start_link_game(app, gid, opts)
    return go


def _resume(app):
    from fathom.flow.play import resume
    resume(app)
