# The heaps the device benches start a unit with, and the environment of each kind of run.
MEASURE_HEAP = "1m"      # room enough that the figures are the game's, not a MemoryError's
BUDGET_HEAP = "96k"  # the budgets (docs/ARCHITECTURE.md): every game completes in this heap
# Bots skip their pauses for people, and the panel does not rest (its "second" 1,000 s: still a
# small int at Sleep's 900): a unit left on its result while the other unit's run goes on must
# take the bench's next press as a press, not as the key that wakes a dimmed panel.
FAST = {"FATHOM_FAST_BOTS": "1", "FATHOM_PANEL_SECOND_MS": "1000000"}
WATCH = dict(FAST, FATHOM_HEAPWATCH="1")     # and the hub samples the live heap every loop
