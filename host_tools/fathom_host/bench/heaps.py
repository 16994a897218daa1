# The heaps the device benches start a unit with, and the environment of each kind of run.
MEASURE_HEAP = "1m"      # room enough that the figures are the game's, not a MemoryError's
BUDGET_HEAP = "96k"  # the budgets (docs/ARCHITECTURE.md): every game completes in this heap
FAST = {"FATHOM_FAST_BOTS": "1"}             # bots skip their pauses for people
WATCH = dict(FAST, FATHOM_HEAPWATCH="1")     # and the hub samples the live heap every loop
