# `fathom bench deal` (host_tools/fathom_host/bench/deal.py): runs on both runtimes and reports
# the figures docs/SEALED_DEAL.md quotes, in the shape the lead's CLI wiring prints.
import pytest

from fathom_host.bench import deal

pytestmark = pytest.mark.slow


def test_bench_deal_reports_every_phase_on_both_runtimes():
    out = deal.bench_deal(runs=1)
    assert out["bits"] == 768 and out["deck_kb_32bit"] > 0 and out["tables_kb_32bit"] > 0
    for phase, exps in (("ping_deal", 40), ("periplus_setup", 115), ("draw3", 3)):
        row = out[phase]
        assert row["exps_per_unit"] == [exps, exps]
        for k in deal.RUNTIMES:
            assert len(row["ms_per_unit_" + k]) == 2 and min(row["ms_per_unit_" + k]) > 0
        assert row["esp32_s"][0] < row["esp32_s"][1] and row["target_s"] > 0
