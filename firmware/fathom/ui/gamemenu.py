# A game's menu: play against another unit or a bot, the game's options, resume a saved game.

from fathom import games
from fathom.games.base import LINK_ONLY, local_options, option_text
from fathom.games.bots import levels
from fathom.link import entropy
from fathom.ui.menu import Item, Menu


def _options_store(app, gid):
    key = "opts_" + gid
    saved = app.settings.values.get(key)
    try:
        return games.options(gid, saved if isinstance(saved, dict) else None)
    except ValueError:  # saved by a firmware whose options differed: the defaults
        return games.options(gid)


def game_menu(app, gid, cursor=0):
    decl = games.declaration(gid)
    opts = _options_store(app, gid)
    items = []
    from fathom.ui.play import saved_game_of
    if saved_game_of(app) == gid:
        items.append(Item("Resume game", lambda a: _resume(a)))
    if decl.PLAYERS[0] == 1:  # cooperative: alone, with a partner's unit, or with a bot partner
        items.append(Item("Solo", _start_bot(gid, opts, None, 1)))
        items.append(Item("with other unit", lambda a: _start_link(a, gid, opts)))
        for level in levels(gid):
            items.append(Item("with bot: " + level, _start_bot(gid, opts, level, 2)))
    else:
        items.append(Item("vs other unit", lambda a: _start_link(a, gid, opts)))
        for level in levels(gid):
            items.append(Item("vs bot: " + level, _start_bot(gid, opts, level, decl.PLAYERS[0])))
    for o in decl.OPTIONS:
        key, label = o[0], o[1]
        if key in LINK_ONLY:
            label += " (link)"   # against the bot or solo it is off: both seats are here
        items.append(Item(label, _cycle(gid, key, o[2], len(items)), True,
                          option_text(o, opts[key])))
    return Menu(app, decl.TITLE, items, cursor)


def _cycle(gid, key, choices, index):
    def go(app):
        opts = _options_store(app, gid)
        i = choices.index(opts[key]) if opts[key] in choices else -1
        opts[key] = choices[(i + 1) % len(choices)]
        app.settings.values["opts_" + gid] = opts
        app.settings.set("opts_" + gid, opts)
        app.replace(game_menu(app, gid, index))
    return go


def _start_bot(gid, opts, level, players):
    def go(app):
        from fathom.ui.play import start_vs_bot
        start_vs_bot(app, gid, local_options(opts), level, entropy.token(16), players)
    return go


def _start_link(app, gid, opts):
    from fathom.ui.pairing import start_link_game
    start_link_game(app, gid, opts)


def _resume(app):
    from fathom.ui.play import resume
    resume(app)
