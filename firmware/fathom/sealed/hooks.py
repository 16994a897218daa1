# The engine hooks every game with a sealed deal shares (PING, Periplus), as a mixin. The deal's
# code is imported only by a game that has one (pub["sd"]): an unsealed game pays nothing.
FOUL = "foul"   # a card share opened no card: its receiver ends the game naming the sender


class SealedHooks:
    def seal(self, pub, priv, salt):
        """The seat's hook: this player's sealed-deal secret, from its salt."""
        if "sd" in pub:
            from fathom.sealed import stage
            priv["sd"] = stage.secret(salt)

    def forced(self, pub, priv, player):
        """The one action the rules leave (the runner plays it without a key press): a foul
        once a card opened to nothing."""
        return [FOUL] if priv.get(FOUL) else None

    def deal_progress(self, pub):
        """(done, total) of the sealed deal's work under way, None when none is: a screen
        draws a progress bar from it while the units shuffle and open cards."""
        if "sd" not in pub:
            return None
        from fathom.sealed import stage
        return stage.progress(pub["sd"])
