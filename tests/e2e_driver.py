# The key-driving helpers live in the host tools (benchmarks use them too).
from fathom_host.drive import (finished, pair, pair_uart, play_out,  # noqa: F401
                               play_through_keys, player_env, release)
