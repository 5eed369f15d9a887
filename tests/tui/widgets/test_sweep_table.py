"""The sweep table's rates: their counts (8/14, not 4/7) while they fit, and ``x`` for
decimals."""

from __future__ import annotations

from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.widgets.sweep_table import SweepTable

from tests.tui.helpers import SIZE


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
        assert table.cells_at(1)[5:] == ("8/14", "0/10", "8/8")
        assert table.cells_at(2)[5:] == ("8/14", "2/10", "8/10")
        assert table.summary() == "5 operating points; > the active one"
        await pilot.press("x")
        await pilot.pause()
        assert m.decimals and table.decimals
        assert m.message == "Sweep table: rates as decimals (x: as counts again)."
        assert table.cells_at(1)[5:] == ("≈0.5714", "0", "1")
        assert table.cells_at(2)[5:] == ("≈0.5714", "0.2", "0.8")
        assert table.summary() == "5 operating points; > the active one; rates as decimals (x)"
        line = table.render_line(4).text  # the active point, 0.8
        assert line.startswith("> 0.8") and "≈0.5714" in line and "8/14" not in line
        await pilot.press("x")
        await pilot.pause()
        assert not m.decimals
        assert m.message.startswith("Sweep table: rates as their counts, such as 8/14")
        assert table.cells_at(2)[5:] == ("8/14", "2/10", "8/10")
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
