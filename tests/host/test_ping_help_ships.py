# The PING help page is a data file beside the game: `fathom deploy` must carry it to a unit
# (stock: beside the modules; frozen: under DATA_ROOT) and fathom.res must find it.
import pathlib

from fathom_host import deploy
from fathom.games.ping import screen as ui
from fathom.ui.dialog import read_text
from fathom import res

FIRMWARE = pathlib.Path(__file__).resolve().parents[2] / "firmware"


def test_deploy_carries_the_help_file_as_data():
    assert ("fathom/" + ui.HELP_FILE, "fathom/" + ui.HELP_FILE) in deploy.sources(FIRMWARE)


def test_the_help_file_is_read_through_res():
    with res.open_data(ui.HELP_FILE) as f:
        first = f.readline()
    assert first.startswith("PING")
    assert read_text(ui.HELP_FILE).count("\n") >= 10  # kept as lines: the page wraps them itself
