# A game's menu: play against another unit or a bot, the game's options, resume a saved game.

from fathom import games
from fathom.link import entropy
from fathom.ui.menu import Item, Menu

BOT_LEVELS = ("easy", "sharp")


def _options_store(app, gid):
    key = "opts_" + gid
    saved = app.settings.values.get(key)
    eng = games.engine(gid)
    try:
        return eng.options(saved or {})
    except Exception:
        return eng.options({})


def game_menu(app, gid, cursor=0):
    eng = games.engine(gid)
    opts = _options_store(app, gid)
    items = []
    from fathom.ui.play import saved_game_of
    if saved_game_of(app) == gid:
        items.append(Item("Resume game", lambda a: _resume(a)))
    if eng.PLAYERS[0] == 1:  # cooperative: alone, with a partner's unit, or with a bot partner
        items.append(Item("Solo", _start_bot(gid, opts, None, 1)))
        items.append(Item("with other unit", lambda a: _start_link(a, gid, opts)))
        for level in BOT_LEVELS:
            items.append(Item("with bot: " + level, _start_bot(gid, opts, level, 2)))
    else:
        items.append(Item("vs other unit", lambda a: _start_link(a, gid, opts)))
        for level in BOT_LEVELS:
            items.append(Item("vs bot: " + level, _start_bot(gid, opts, level, eng.PLAYERS[0])))
    for key, label, choices, _default in eng.OPTIONS:
        items.append(Item(label, _cycle(gid, key, choices, len(items)), True, str(opts[key])))
    return Menu(app, eng.TITLE, items, cursor)


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
        start_vs_bot(app, gid, opts, level, entropy.token(16), players)
    return go


def _start_link(app, gid, opts):
    from fathom.ui.pairing import start_link_game
    start_link_game(app, gid, opts)


def _resume(app):
    from fathom.ui.play import resume
    resume(app)
