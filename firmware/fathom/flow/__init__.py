# The flows: the screens that take a player from the home menu through pairing, a game and its
# end, above the runner, the peers and the link, which they drive. The widget kit they draw with
# is fathom.ui, which imports none of this.
