# `fathom bench`: one subcommand per bench, each with the options it takes and no other, and
# every bench named where a user looks (`fathom --help`, `fathom bench --help`).
import pathlib
import re

import pytest

from fathom_host import bench, cli

BENCH_DIR = pathlib.Path(bench.__file__).parent
NAMES = [n for n, _h in bench.HELP]


def help_of(argv, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(argv + ["--help"])
    assert e.value.code == 0
    return capsys.readouterr().out


def test_every_bench_module_is_a_subcommand():
    mods = {p.stem for p in BENCH_DIR.glob("*.py")} - {"__init__", "metrics", "heaps",
                                                        "device_link"}
    assert mods <= set(NAMES), sorted(mods - set(NAMES))
    assert set(bench.BENCHES) | set(bench.LONG_BENCHES) == set(NAMES) - {"all"}


def test_fathom_help_and_bench_help_list_every_bench(capsys):
    top = " ".join(help_of([], capsys).split())   # argparse wraps the line
    at = top.index("bench benchmarks:")
    line = top[at:top.index("screenshot", at)]
    for name in NAMES:
        assert name in line, (name, line)
    text = help_of(["bench"], capsys)
    for name in NAMES:
        assert re.search(r"^    %s  " % name, text, re.M), (name, text)


def test_an_option_belongs_to_its_bench(capsys):
    assert bench.parse(["turn", "--loss", "0.1", "--units", "3"]).loss == "0.1"
    assert bench.parse(["device", "--runtime", "both"]).runtime == "both"
    for argv in (["link", "--loss", "0.1"], ["deal", "--runtime", "stock"],
                 ["boot", "--runtime", "both"], ["ux", "--link"], ["path", "--games", "3"]):
        with pytest.raises(SystemExit):
            bench.parse(argv)
        assert "error:" in capsys.readouterr().err, argv


def test_a_bench_help_shows_its_own_options_only(capsys):
    text = help_of(["bench", "turn"], capsys)
    assert "--loss" in text and "--units" in text and "--link" not in text
    text = help_of(["bench", "device"], capsys)
    assert "--link" in text and "--loss" not in text
