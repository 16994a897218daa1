# The host's view of a unit's saved game: its journal (data/game) read record by record into
# one dict shaped like a whole save: gid, meta, relay, revealed, the seat's inputs and log, and
# the reveals and verdicts received. For tests that look into a unit's own seat.
import pathlib
import time

from fathom.codec import decode
from fathom.hal.records import scan_records
from fathom.journal import header_of


def read_game(path):
    """The game saved at `path` (a unit's data/game). A record being appended while we read
    is a torn last record, which the reader drops, as the unit itself would."""
    with open(str(path), "rb") as f:
        recs = [decode(body) for _p, _e, body in scan_records(f)]
    h = header_of(recs[0])
    seat = {"opts": h["opts"], "n": h["n"], "seed": h["seed"], "player": h["player"],
            "salt": h["salt"], "setup": [], "actions": [], "log": [], "cks": []}
    out = {"gid": h["gid"], "meta": h["meta"], "relay": h["relay"], "seat": seat,
           "reveals": {}, "verdicts": {}, "revealed": False, "claimed": False}
    for rec in recs[1:]:
        tag = rec[0]
        if tag == "c":
            seat["setup"].append(rec[1])
        elif tag == "e":
            seat["log"].append([rec[1], rec[2]])
            seat["cks"].append(rec[4])
            if len(rec) > 5:
                seat["actions"].append(rec[5])
        elif tag == "r":
            out["reveals"][rec[1]] = [rec[2], rec[3], []]
        elif tag == "ra":
            out["reveals"][rec[1]][2].extend(rec[3])
        elif tag == "v":
            out["verdicts"][rec[1]] = rec[2]
        elif tag == "rv":
            out["revealed"] = True
        elif tag == "cl":
            out["claimed"] = True
    return out


def unit_game(unit_dir):
    """The game saved by the emulated unit whose folder is `unit_dir` (an Emulator's
    workdir/unitN)."""
    return read_game(pathlib.Path(str(unit_dir)) / "data" / "game")


def wait_game(unit_dir, timeout=2.0):
    """unit_game, waiting for the unit to have written its journal's first record."""
    end = time.monotonic() + timeout
    while True:
        try:
            return unit_game(unit_dir)
        except (OSError, IndexError):
            if time.monotonic() > end:
                raise AssertionError("no readable save in %s" % unit_dir)
            time.sleep(0.05)  # the unit is a separate process: poll its file
