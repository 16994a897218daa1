# The key-driving helpers live in the host tools (benchmarks use them too).
from fathom_host.emulator.drive import (confirm_group_code, finished, pair, pair_uart,  # noqa: F401
                               play_out, play_through_keys, player_env, release)
