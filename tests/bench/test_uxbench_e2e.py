# `fathom bench ux` itself, on one short game: the scripted player inside an emulated unit opens
# the game from power-on through the home menu, plays it to the verified result through the
# keys, and every choice it reports took at least one key press; every event reached the panel
# in words before the player's next choice, and no drawn line ended in a cut.
import argparse

import pytest

from fathom_host.bench import ux

pytestmark = pytest.mark.slow


def test_one_game_of_sugar_dog_through_the_keys_from_power_on():
    args = argparse.Namespace(games=1, games_given=True, sizes=["128x64"])
    out = ux.bench_ux(args, ["sugardog"])["sugardog"]
    assert out["games"] == 1 and out["actions"] >= 2, out
    assert out["min"] >= 1 and out["median"] <= out["p90"] <= out["max"], out
    # the first choice: the menu items to the game, then its own keys
    assert out["first_move"] > out["min"], out
    assert out["meets_targets"] == all(out[k] <= v for k, v in ux.TARGETS.items())
    assert out["events"] >= 1 and out["events_unseen"] == 0, out
    assert out["cut_lines"] == 0, out.get("cut_examples")

