# Driving runners with bots in tests (CPython and MicroPython alike).


def bot_step(runner, bot, now):
    """One loop of a bot-driven runner: finish its set-up, tick it, and act when it must."""
    s = runner.seat
    while s.setup_legal():
        runner.setup_choose(bot.setup(s))
    runner.tick(now)
    if s.result() is None and s.my_turn() and s.to_move()[1] == "act":
        runner.play(bot.act(s))
