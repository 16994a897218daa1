# Bots decide from one seat only: its public state, its log and its own secrets.
