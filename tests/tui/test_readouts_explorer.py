"""Readouts in the explorer: R walks the threshold round the seven readouts' points,
saying each; the metrics column lists them where every metric fits; m lists them all."""

from __future__ import annotations

from threshold_lab.core.curves.operating import DEFAULT_READOUTS, readouts
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.presets import preset
from threshold_lab.tui.widgets.confusion import MetricsPanel

from tests.tui.helpers import SIZE, make_app


async def test_r_walks_round_the_readouts_saying_each() -> None:
    want = readouts(build_sweep(preset("good").data), DEFAULT_READOUTS)
    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        for i, r in enumerate([*want, want[0]]):
            await pilot.press("R")
            await pilot.pause()
            assert m.session.threshold == r.threshold
            assert m.message.startswith(f"{r.asked}: ")
            assert m.message.endswith(f"(readout {i % 7 + 1} of 7).")
        # "good": TPR at FPR <= 0.1 is 8/10 at 0.55 (FPR 1/10), and FPR at TPR >= 0.9
        # is 3/10 at 0.42.
        assert [(r.threshold, r.value.short()) for r in want[3:5]] == [
            (0.55, "8/10"),
            (0.42, "3/10"),
        ]


async def test_the_metrics_column_lists_the_readouts_when_every_metric_fits() -> None:
    app = make_app("canonical")
    async with app.run_test(size=(200, 80)) as pilot:
        await pilot.press("i")  # intervals hidden: one line a metric
        await pilot.pause()
        panel = app.main.query_one(MetricsPanel)
        text = "\n".join(t.plain for t in panel.lines_at(60))
        assert "At fixed rates (R jumps to each):" in text
        assert "TPR at FPR <= 0.01: 1/3 at 0.9" in text
        assert "FPR at TPR >= 0.99: 2/2 at 0.1" in text
