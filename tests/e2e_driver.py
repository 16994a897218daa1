# The key-driving helpers live in the host tools (benchmarks use them too).
from fathom_host.drive import (NEAR, finished, game_choices, move_to, near_random,  # noqa: F401
                               pair, pair_uart, play_through_keys)
