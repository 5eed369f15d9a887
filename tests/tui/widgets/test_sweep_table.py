"""The sweep table's rates: their counts (8/14, not 4/7) while they fit, and ``x`` for
decimals."""

from __future__ import annotations

from fractions import Fraction

from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.widgets.sweep_table import SweepTable

from tests.tui.helpers import LARGE, SIZE, SMALL, retype


def reducing_app() -> ThresholdLab:
    """TP 8, FP 2, TN 8, FN 6 at 0.5: TPR 8/14 and precision 8/10 both reduce."""
    data = make_dataset([0.9] * 8 + [0.2] * 6 + [0.8] * 2 + [0.1] * 8, [1] * 14 + [0] * 10)
    return ThresholdLab(Session(data, 0.5, source="arrays"), playback_seconds=60.0)


async def test_rates_are_their_counts_and_x_toggles_decimals() -> None:
    app = reducing_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        m = app.main
        assert m.status_text.endswith("; precision 8/10, recall 8/14.")
        table = m.query_one(SweepTable)
        assert table.cells_at(1)[5:8] == ("8/14", "0/10", "8/8")
        assert table.cells_at(2)[5:8] == ("8/14", "2/10", "8/10")
        assert table.summary() == "5 operating points; > the active one"
        await pilot.press("x")
        await pilot.pause()
        assert m.decimals and table.decimals
        assert m.message == "Sweep table: rates as decimals (x: as counts again)."
        assert table.cells_at(1)[5:8] == ("≈0.5714", "0", "1")
        assert table.cells_at(2)[5:8] == ("≈0.5714", "0.2", "0.8")
        assert table.summary() == "5 operating points; > the active one; rates as decimals (x)"
        line = table.render_line(4).text  # the active point, 0.8
        assert line.startswith("> 0.8") and "≈0.5714" in line and "8/14" not in line
        await pilot.press("x")
        await pilot.pause()
        assert not m.decimals
        assert m.message.startswith("Sweep table: rates as their counts, such as 8/14")
        assert table.cells_at(2)[5:8] == ("8/14", "2/10", "8/10")
        assert "8/14" in table.render_line(4).text


async def test_a_narrow_sweep_pane_still_says_its_rates_are_decimals() -> None:
    # At 120x40 on 5,000 rows the title was cut to "points 1392-1397 of 3816" and lost
    # the word that the cells were decimals, not counts.
    import numpy as np

    rng = np.random.default_rng(3)
    scores = np.round(rng.random(5000), 4)
    data = make_dataset(scores.tolist(), (rng.random(5000) < scores).astype(int).tolist())
    app = ThresholdLab(Session(data, 0.5, source="arrays"), playback_seconds=60.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("x")
        await pilot.pause()
        table = app.main.query_one(SweepTable)
        title = table.render_line(0).text.rstrip()
        assert len(table.summary()) > table.content_region.width  # it had to be shortened
        assert title.startswith("points ") and title.endswith("; decimals (x)"), title


async def test_f1_and_the_goals_metric_use_the_width() -> None:
    """Beside TPR, FPR and precision: F1, and the metric of the goal in force, each
    exact (F1 = 2TP/(2TP+FP+FN), accuracy = (TP+TN)/n, from the counts)."""
    app = reducing_app()
    async with app.run_test(size=LARGE) as pilot:
        await pilot.press("4")
        m = app.main
        table = m.query_one(SweepTable)
        header = table.render_line(1).text.split()
        assert header == ["threshold", "TP", "FP", "TN", "FN", "TPR", "FPR", "precision", "F1"]
        for point in range(5):
            tp, fp, tn, fn = (int(c) for c in table.cells_at(point)[1:5])
            f1 = Fraction(2 * tp, 2 * tp + fp + fn)
            assert table.cells_at(point)[8] == f"{2 * tp}/{2 * tp + fp + fn}", point
            assert f1 == Fraction(table.cells_at(point)[8])
        await pilot.press("d", *retype("max accuracy"), "enter")
        await pilot.pause()
        header = table.render_line(1).text.split()
        assert header[-2:] == ["F1", "accuracy"]
        for point in range(5):
            tp, fp, tn, fn = (int(c) for c in table.cells_at(point)[1:5])
            cell = table.cells_at(point)[9]
            assert Fraction(cell) == Fraction(tp + tn, 24), (point, cell)
        # A goal on a metric shown already adds no column; at a prevalence it does,
        # headed with it (precision at 1/20 differs from the rows' precision).
        await pilot.press("d", *retype("max precision"), "enter")
        await pilot.pause()
        assert table.render_line(1).text.split()[-1] == "F1"
        await pilot.press("w", *retype("1/20"), "enter")
        await pilot.pause()
        assert table.render_line(1).text.split()[-3:] == ["precision", "at", "1/20"]


async def test_a_narrow_table_leaves_out_f1_first() -> None:
    app = reducing_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("4")
        table = app.main.query_one(SweepTable)
        header = table.render_line(1).text.split()
        assert "precision" in header and "TN" in header
        assert table.content_region.width < 80
