# Per-game screens: fathom.ui.play imports fathom.ui.games.<gid> when it exists.
