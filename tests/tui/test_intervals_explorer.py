"""Intervals in the explorer: beside the metrics and the AUC (i hides them), and
the bootstrap (B) in a worker with its progress, its cancel and bands on the curves."""

from __future__ import annotations

import numpy as np
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.widgets.charts import CurveChart
from threshold_lab.tui.widgets.confusion import MetricsPanel
from threshold_lab.tui.widgets.text import ItemLines

from tests.tui.helpers import SIZE, make_app, rendered


async def _settle(app: ThresholdLab, pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause(0.4)


async def test_intervals_show_beside_the_metrics_and_i_hides_them() -> None:
    app = make_app("delivery-a")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        panel = app.main.query_one(MetricsPanel)
        text = panel.plain
        assert "precision = TP/(TP+FP) = 1/(1+2) = 1/3 ≈ 0.3333" in text
        assert "(95% CI 0.06 to 0.79, n = 3)" in text
        assert "i: hide intervals" in text and "B: bootstrap" in text
        summary = app.main.query_one("#chart-summary", ItemLines).plain
        assert "95% CI 0.40 to 1.00, DeLong" in summary
        await pilot.press("i")
        await pilot.pause()
        assert "CI" not in panel.plain and "i: show intervals" in panel.plain
        assert "DeLong" not in app.main.query_one("#chart-summary", ItemLines).plain
        assert app.main.message == "Intervals off."
        await pilot.press("i")
        await pilot.pause()
        assert "(95% CI 0.06 to 0.79, n = 3)" in panel.plain


async def test_B_bootstraps_in_the_background_and_draws_bands() -> None:
    app = make_app("delivery-a")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("B")
        await _settle(app, pilot)
        m = app.main
        assert m.message.startswith("Bootstrap done: 1000 replicates, seed 20261130; AP 95% CI")
        sure = m.session.sure
        assert sure is not None and sure.boot is not None
        panel = m.query_one(MetricsPanel).plain
        assert "= 2/5 = 0.4 (95% CI" in panel.replace("\n  ", " ") and "bootstrap)" in panel
        chart = m.query_one("#roc-chart", CurveChart)
        assert "95% band" in chart.legend
        assert "\u00b7" in rendered(chart)  # the band's dots
        assert "B: bootstrap off" in m.query_one(MetricsPanel).plain
        # A threshold move: the same replicates are counted at the new point once the
        # keys settle; AP's interval and the bands stay meanwhile.
        await pilot.press("right_square_bracket")
        job = m.session.boot_job()  # None when the (tiny) rerun is already done
        assert job is None or job.base is not None
        assert m.session.sure.estimate("average_precision").interval is not None  # type: ignore[union-attr]
        await _settle(app, pilot)
        a = m.session.analysis
        assert m.session.sure.estimate("f1", a.point).interval is not None  # type: ignore[union-attr]
        # A follow-up run keeps the move's sentence (a walk's step: the chart is shown).
        assert m.message.startswith("Point ")
        await pilot.press("B")  # off
        await pilot.pause()
        assert m.session.replicates is None and m.message == "Bootstrap off."
        assert "95% band" not in chart.legend


async def test_B_again_cancels_a_long_run() -> None:
    rng = np.random.default_rng(3)
    n = 300_000
    y = (rng.random(n) < 0.3).astype(int)
    data = make_dataset(rng.random(n) + y * 0.5, y)
    app = ThresholdLab(Session(data, 0.7, source="big"), theme="textual-dark")
    async with app.run_test(size=SIZE) as pilot:
        await _settle(app, pilot)
        await pilot.press("B")
        await pilot.pause(0.5)
        assert app.main.bootstrapper.running
        await pilot.press("B")
        await _settle(app, pilot)
        assert app.main.message.startswith("Bootstrap cancelled after ")
        assert app.main.session.replicates is None
        assert app.main.session.sure is not None and app.main.session.sure.boot is None
