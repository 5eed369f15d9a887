"""The curve chart: ROC, precision-recall and DET curves of the exact sweep, every
model's where there are several, with a bootstrap's band, the folds' range, each
partial AUC's range and the ROC convex hull; the other charts are its kinds."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import numpy.typing as npt
from rich.text import Text
from textual.app import RenderResult
from textual.reactive import reactive
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.curves.smooth import Smoothed
from threshold_lab.core.drawing.bands import Band, DrawnBands
from threshold_lab.core.drawing.lines import CurveLine
from threshold_lab.core.drawing.prepared import OtherCurves, Prepared
from threshold_lab.core.drawing.scaled import LOG_GAP, ScaledLine, cell_of
from threshold_lab.core.metrics.metric import format_count
from threshold_lab.core.text.operating import partial_auc_short
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.layout import folds_drawn, has_room_for_every_fold, longest_fitting
from threshold_lab.tui.widgets.charts.base import (
    ACTIVE_MARK,
    BAND_MARK,
    BAND_MARK_ASCII,
    CHANCE_MARK,
    LOW_MARK,
    OVERLAID,
    Chart,
    is_braille,
    legend_name,
    model_mark,
    plain_canvas,
    plot_cells,
    same_key,
    tick_text,
    unit_ticks,
)

#: The edges of each partial AUC's range on the ROC chart (--partial-auc).
PARTIAL_MARK = ":"
#: The ROC curve's convex hull (h).
HULL_MARK = "="
#: A smoothed ROC curve beside the exact one (z): ASCII, so the same under --ascii.
SMOOTH_MARK = "~"
#: What the PR chart's legend says in place of the active point's mark where precision
#: is undefined (above all scores, nothing predicted positive), longest first.
NO_POINT_WORDS = (
    "no active point: precision undefined above all scores",
    f"no {ACTIVE_MARK}: precision undefined above all scores",
    f"no {ACTIVE_MARK}: precision undefined",
)


def _beside(band: Band, xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64]) -> Band:
    """``band`` with each side only where it leaves the curve (NaN where the side is
    the curve's own value, a band of no width there): what may be moved clear of it."""
    order = np.argsort(xs, kind="stable")
    curve = np.interp(band.x, xs[order], ys[order])
    tol = 1e-9
    high = np.where(band.high > curve + tol, band.high, np.nan)
    low = np.where(band.low < curve - tol, band.low, np.nan)
    return Band(band.x, low, high)


def _is_curve(ch: str, ascii: bool) -> bool:
    """Whether a canvas cell holds the shown curve's mark (braille, or ``*``)."""
    return ch == "*" if ascii else is_braille(ch)


class CurveChart(Chart):
    """One curve chart: ``kind`` is ``"roc"``, ``"pr"`` or ``"det"`` (the other charts
    are kinds of it, with their own canvases)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "curve-chart--axis",
        "curve-chart--sweep",
        "curve-chart--chance",
        "curve-chart--active",
        "curve-chart--band",
        "curve-chart--other",
    }
    """
    | Class | Description |
    | :- | :- |
    | `curve-chart--axis` | The axes, their ticks and names. |
    | `curve-chart--sweep` | The shown model's curve (the exact sweep). |
    | `curve-chart--other` | Every other model's curve. |
    | `curve-chart--chance` | The baseline: chance on ROC, the prevalence on PR (dashes). |
    | `curve-chart--band` | The bootstrap's band around a curve (dots). |
    | `curve-chart--active` | The active operating point `O` (and the threshold's line). |
    """

    DEFAULT_CSS = """
    CurveChart > .curve-chart--axis { color: $text; }
    CurveChart > .curve-chart--sweep { color: $text-accent; }
    CurveChart > .curve-chart--other { color: $text; }
    CurveChart > .curve-chart--chance { color: $text-muted; }
    CurveChart > .curve-chart--band { color: $text-muted; }
    CurveChart > .curve-chart--active { color: $text; text-style: bold reverse; }
    """

    log_fpr: reactive[bool] = reactive(False)
    """ROC only: FPR on a log scale (decades), for the low-FPR corner."""
    roc_hull: reactive[bool] = reactive(False)
    """ROC only (linear FPR): draw the curve's convex hull."""
    roc_smooth: reactive[str] = reactive("")
    """ROC only (linear FPR): the method of the smoothed curve drawn beside (z), or ""."""
    fold_curve: reactive[int] = reactive(0)
    """With folds, the fold whose curve is drawn beside all rows' (F; 0: none chosen,
    then every fold's where the plot has room)."""

    def watch_log_fpr(self) -> None:
        self._base = None
        if self.display:
            self.replot()

    def watch_fold_curve(self) -> None:
        if self.display:
            self.replot()

    def watch_roc_hull(self) -> None:
        self._base = None
        if self.display:
            self.replot()

    def watch_roc_smooth(self) -> None:
        self._base = None
        if self.display:
            self.replot()

    @property
    def smoothed(self) -> Smoothed | None:
        """The smoothed curve this chart draws (ROC, linear FPR, asked for, made)."""
        frame = self.frame
        if self.kind != "roc" or self.log_fpr or not self.roc_smooth or frame is None:
            return None
        s = frame.readings.smoothed
        return s if isinstance(s, Smoothed) and s.method == self.roc_smooth else None

    @property
    def draws_hull(self) -> bool:
        """Whether this chart draws the ROC convex hull (ROC, linear FPR, asked for)."""
        return self.kind == "roc" and self.roc_hull and not self.log_fpr

    @property
    def line_kind(self) -> str:
        """Which of the prepared curves this chart draws (``log_roc`` for ROC on a log
        FPR axis)."""
        return "log_roc" if self.kind == "roc" and self.log_fpr else self.kind

    def _line(self, prepared: Prepared) -> CurveLine | None:
        return prepared.line(self.line_kind)

    def _scaled(self) -> ScaledLine | None:
        """The shown curve when its axes are scaled (DET, log FPR), else None."""
        prepared = None if self.frame is None else self.frame.ready
        line = None if prepared is None else prepared.line(self.line_kind)
        return line if isinstance(line, ScaledLine) else None

    def _other_line(self, other: OtherCurves) -> CurveLine | None:
        return other.line(self.line_kind)

    def _folded(self) -> bool:
        """Whether this chart draws all rows and cross-validation folds (--fold)."""
        frame = self.frame
        return (
            frame is not None
            and frame.update.folds
            and len(frame.update.models) > 1
            and self.kind in OVERLAID
        )

    def _every_fold_fits(self) -> bool:
        """Whether the plot has room for every fold's curve at once."""
        width, height = self.content_region.width, self.content_region.height
        margin = max(4, len(self._axes()[1])) + 1
        return has_room_for_every_fold(plot_cells(width - margin - 2), plot_cells(height - 3))

    def _drawn(self) -> tuple[int, ...] | None:
        """The models whose curves are drawn, by place (0: all rows), with folds;
        None (every model's) without."""
        frame = self.frame
        if frame is None or not self._folded():
            return None
        rows = frame.update.models
        shown = next((i for i, r in enumerate(rows) if r.shown), 0)
        room = self._every_fold_fits()
        return folds_drawn(len(rows), shown, self.fold_curve, room=room)

    def fold_sentence(self) -> str:
        """What F made this chart draw, in a sentence, and what F does next."""
        frame, drawn = self.frame, self._drawn()
        if frame is None or drawn is None:
            return "F draws one fold's curve at a time on rows opened with --fold COL."
        rows = frame.update.models
        folds = len(rows) - 1
        chosen = self.fold_curve if 0 < self.fold_curve < len(rows) else 0
        name = {"roc": "ROC", "pr": "PR", "det": "DET"}.get(self.kind, self.kind)
        rng = " and the folds' range" if self._fold_band() is not None else ""
        if chosen:
            mark = model_mark(chosen, self.ascii)
            shown = "\u2812\u2812" if mark == "braille" else mark * 2
            then = f"fold {rows[chosen + 1].name}" if chosen < folds else "no fold's curve"
            if chosen == folds and self._every_fold_fits():
                then = "every fold"
            return (
                f"{name} chart: fold {rows[chosen].name}'s curve ({shown}) beside all rows'"
                f"{rng} (F: {then})."
            )
        if len(drawn) == len(rows):
            return (
                f"{name} chart: every fold's curve beside all rows'{rng} "
                f"(F: fold {rows[1].name} alone)."
            )
        return (
            f"{name} chart: all rows' curve{rng}; F draws each of the {folds} folds' "
            f"curves in turn (F: fold {rows[1].name})."
        )

    def legend_to_fit(self, width: int) -> str:
        """The legend in its longest wording of at most ``width`` cells."""
        baseline = "chance" if self.kind in ("roc", "det") else "prevalence"
        sweep = "*" if self.ascii else "\u2812\u2812"
        c, o = CHANCE_MARK, ACTIVE_MARK
        band = self._bands()
        b = BAND_MARK_ASCII if self.ascii else BAND_MARK
        pct = "" if band is None or self.frame is None else self.frame.readings.band_percent
        models = self._models()
        if models and self._folded():
            return self._folds_legend(width, band is not None, pct)
        if models:
            folds = band is None and self._fold_band() is not None
            return self._models_legend(
                width, models, band is not None or folds, pct, "folds' range" if folds else None
            )
        smoothed = self.smoothed
        if smoothed is not None:
            z, m = SMOOTH_MARK, smoothed.method
            hull_long = [f"{HULL_MARK} convex hull"] if self.draws_hull else []
            hs = [f"{HULL_MARK} hull"] if self.draws_hull else []
            smooth = (
                " · ".join(
                    [
                        f"{c} {baseline}",
                        f"{sweep} exact sweep",
                        *hull_long,
                        f"{z} smoothed ({m})",
                        f"{o} active point",
                    ]
                ),
                " · ".join([f"{c} baseline", f"{sweep} sweep", *hs, f"{z} {m}", f"{o} active"]),
                " ".join([f"{c} base", f"{sweep} sweep", *hs, f"{z} {m}", f"{o} active"]),
                " ".join([f"{sweep} sweep", f"{z} {m}", f"{o} active"]),
            )
            return self._fit(width, *smooth)
        if self.draws_hull:
            h = HULL_MARK
            hulled = (
                f"{c} {baseline} · {sweep} exact sweep · {h} convex hull · {o} active point",
                f"{c} baseline · {sweep} sweep · {h} hull · {o} active",
                f"{c} base {sweep} sweep {h} hull {o} active",
            )
            return self._fit(width, *hulled)
        wordings: tuple[str, ...] = (
            f"{c} {baseline} · {sweep} exact sweep · {o} active point",
            f"{c} baseline · {sweep} sweep · {o} active point",
            f"{c} baseline {sweep} sweep {o} active",
            f"{c} base {sweep} sweep {o} active",
        )
        if band is not None:
            # The band's mark is a dot, so its wordings part items by two spaces.
            wordings = (
                f"{c} {baseline}  {sweep} exact sweep  {b}{b} {pct} band  {o} active point",
                f"{c} baseline  {sweep} sweep  {b}{b} {pct} band  {o} active",
                f"{c} base  {sweep} sweep  {b}{b} band  {o} active",
                f"{c} base {sweep} sweep {b}{b} band {o} active",
                f"{sweep} sweep {b}{b} band {o} active",
                f"{b}{b} band {o} active",
            )
        return self._fit(width, *wordings)

    def _low_point(self, line: CurveLine | None) -> tuple[float, float] | None:
        """A review band's reject point on this curve (``L``), where it is drawn: a
        band reviewing some rows, on one threshold (not each group its own)."""
        frame = self.frame
        review = None if frame is None else frame.update.review
        if line is None or frame is None or review is None or frame.own is not None:
            return None
        if self.kind not in ("roc", "pr", "det"):  # the curves a threshold is a point of
            return None
        if review.index_low == review.index_high:
            return None
        return line.at(review.index_low)

    def _no_point(self) -> bool:
        """Whether the active point is off this chart's curve: on the PR chart, the
        point above all scores, where nothing is predicted positive and precision is
        undefined (so no ``O`` is drawn)."""
        frame = self.frame
        prepared = None if frame is None else frame.ready
        line = None if prepared is None else self._line(prepared)
        if frame is None or line is None or frame.own is not None or self.kind != "pr":
            return False
        return line.at(frame.analysis.point) is None

    def _fit(self, width: int, *wordings: str) -> str:
        """The first of ``wordings`` of at most ``width`` cells; where no active point
        is drawn, each says why in place of naming its mark, the reason kept whole
        before the other items are shortened, then in fewer words."""
        frame = self.frame
        prepared = None if frame is None else frame.ready
        line = (
            None
            if prepared is None or self.line_kind not in prepared.kinds
            else self._line(prepared)
        )
        if self._low_point(line) is not None:  # a band: O accepts, L rejects below
            o, low = ACTIVE_MARK, LOW_MARK
            wordings = tuple(
                w.replace(f"{o} active point", f"{o} accept point · {low} reject point").replace(
                    f"{o} active", f"{o} accept {low} reject"
                )
                for w in wordings
            )
        if not self._no_point():
            return longest_fitting(width, *wordings)
        o = ACTIVE_MARK
        reasons = NO_POINT_WORDS
        said = [
            w.replace(f"{o} active point", why).replace(f"{o} active", why)
            for why in reasons
            for w in wordings
        ]
        return longest_fitting(width, *said)

    def _models(self) -> list[tuple[str, str, bool]]:
        """Every model drawn, in model order: (its mark as the legend shows it, its
        name, whether it is the one shown); empty with one model."""
        frame = self.frame
        prepared = None if frame is None else frame.ready
        rows = () if frame is None else frame.update.models
        if prepared is None or not prepared.others or not rows or self.kind not in OVERLAID:
            return []
        drawn = self._drawn()
        out = []
        for i, row in enumerate(rows):
            if drawn is not None and i not in drawn:
                continue
            mark = model_mark(i, self.ascii)
            shown = "\u2812\u2812" if mark == "braille" else mark * 2
            out.append((shown, legend_name(row.name), row.shown))
        return out

    def _folds_legend(self, width: int, bootstrap: bool, pct: str) -> str:
        """The legend of a chart of all rows and folds: each curve drawn (all rows',
        the shown fold's, the one F chose, or every fold's), the folds' range (or the
        bootstrap's band), the baseline and the active point, every mark named in
        every wording; then F, where there is room."""
        c, o = CHANCE_MARK, ACTIVE_MARK
        b = BAND_MARK_ASCII if self.ascii else BAND_MARK
        models = self._models()
        baseline = "chance" if self.kind in ("roc", "det") else "prevalence"

        def curves(long: bool, fold: str = "fold ") -> list[str]:
            """Each curve drawn: all rows' first (always drawn), then the folds'."""
            out = []
            starred = False
            for k, (m, name, shown) in enumerate(models):
                what = ("all rows" if long else name) if k == 0 else f"{fold}{name}"
                # Short of room, a fold whose rows are shown is starred, and the star
                # said; all rows' curve, the one shown unless a fold is, is not.
                star = k > 0 and shown and not long
                starred = starred or star
                out.append(f"{m} {what}{' (shown)' if shown and long else '*' if star else ''}")
            return [*out, "* shown"] if starred else out

        words: tuple[str, str, str] | None = None
        if bootstrap:
            words = (f"{pct} band", f"{pct} band", "band")
        elif self._band() is not None:
            words = ("folds' range (lowest to highest TPR)", "folds' range", "range")

        def band(k: int) -> list[str]:
            return [] if words is None else [f"{b}{b} {words[k]}"]

        wordings = (
            "  ".join([*curves(True), *band(0), f"{c} {baseline}", f"{o} active point"]),
            "  ".join([*curves(True), *band(1), f"{c} {baseline}", f"{o} active point"]),
            "  ".join([*curves(False), *band(1), f"{c} {baseline}", f"{o} active"]),
            " ".join([*curves(False), *band(1), f"{c} base", f"{o} active"]),
            " ".join([*curves(False, ""), *band(1), f"{c} base", f"{o} active"]),
            " ".join([*curves(False, ""), *band(2), f"{c} base", f"{o} active"]),
        )
        hinted = tuple(f"{w}  F: next fold" for w in wordings[:3])
        return self._fit(width, hinted[0], wordings[0], *hinted[1:], *wordings[1:])

    def _models_legend(
        self,
        width: int,
        models: list[tuple[str, str, bool]],
        band: bool,
        pct: str,
        band_words: str | None = None,
    ) -> str:
        """The legend with one entry a model (the shown one said so, or starred where
        room is short), then the baseline, the band and the active point as room
        allows: the models and the baseline go last."""
        c, o = CHANCE_MARK, ACTIVE_MARK
        b = BAND_MARK_ASCII if self.ascii else BAND_MARK
        long = [f"{m} {n}{' (shown)' if shown else ''}" for m, n, shown in models]
        short = [f"{m} {n}{'*' if shown else ''}" for m, n, shown in models]
        baseline = "chance" if self.kind in ("roc", "det") else "prevalence"
        sep = "  " if band else " · "
        banded = [f"{b}{b} {band_words or pct + ' band'}"] if band else []
        short_band = [f"{b}{b} {'folds' if band_words else 'band'}"] if band else []
        wordings: tuple[str, ...] = (
            sep.join([*long, f"{c} {baseline}", *banded, f"{o} active point"]),
            sep.join([*long, f"{c} {baseline}", *banded, f"{o} active"]),
            "  ".join([*short, f"{c} {baseline}", *short_band, f"{o} active"]),
            "  ".join([*short, f"{c} base", f"{o} active"]),
            " ".join([*short, f"{c} base", f"{o} active"]),
            " ".join([*short, f"{c} base"]),
            " ".join(short),
        )
        if band_words is not None:  # the folds' range: kept before the baseline
            fb = f"{b}{b} {band_words}"
            wordings = (
                sep.join([*long, f"{c} {baseline}", fb, f"{o} active point"]),
                "  ".join([*short, fb, f"{c} base", f"{o} active"]),
                " ".join([*short, f"{b}{b} folds", f"{c} base", f"{o} active"]),
                " ".join([*short, f"{b}{b} folds"]),
                " ".join(short),
            )
        if self.frame is not None and self.frame.own is not None:  # no one point is active
            mark = [f"{o} pooled"] if self.kind in ("roc", "pr") and not self.log_fpr else []
            wordings = (
                sep.join([*long, f"{c} {baseline}", *banded, *mark]),
                "  ".join([*short, f"{c} base", *short_band, *mark]),
                " ".join([*short, *mark]),
                " ".join(short),
            )
        return self._fit(width, *wordings)

    def _pooled_point(self, a: Analysis) -> tuple[float, float] | None:
        """The groups' pooled operating point (each group at its own threshold; its
        rates as core reads them off the pooled counts) on a ROC or PR chart with linear
        axes, or None where a rate is undefined."""
        m = a.metrics
        x, y = {"roc": ("fpr", "recall"), "pr": ("recall", "precision")}.get(self.kind, ("", ""))
        if not x or (self.kind == "roc" and self.log_fpr):
            return None
        vx, vy = m[x].value, m[y].value
        return None if vx is None or vy is None else (float(vx), float(vy))

    def _bands(self) -> DrawnBands | None:
        """The bootstrap's bands and their confidence, when there are any to draw
        (around ROC and PR curves only)."""
        if self.frame is None or self.kind not in ("roc", "pr"):
            return None
        return self.frame.update.bands

    def _fold_band(self) -> Band | None:
        """With folds, on the ROC chart with linear axes and no bootstrap band: the
        folds' TPR range at each FPR."""
        frame = self.frame
        if frame is None or self.kind != "roc" or self.log_fpr or frame.own is not None:
            return None
        return frame.update.fold_band

    def _band(self) -> Band | None:
        """The band around this chart's curve, placed on its axes (FPR on the log
        scale when it is on); with folds and no bootstrap, the folds' range."""
        bands = self._bands()
        if bands is None:
            return self._fold_band()
        b = bands.of(self.kind)
        scaled = self._scaled()
        if scaled is None:
            return b
        return Band(scaled.xscale.unit(b.x), b.low, b.high)

    def _title(self) -> str:
        """The chart's name, with how many models it draws, in the longest wording that
        fits the border."""
        name = {"roc": "ROC curve", "det": "DET curve"}.get(self.kind, "Precision-recall curve")
        log = ", FPR on a log scale" if self.kind == "roc" and self.log_fpr else ""
        models = self._models()
        if not models:
            return name + log
        short = {"roc": "ROC", "det": "DET"}.get(self.kind, "PR")
        grouped = self.frame is not None and self.frame.update.group_by is not None
        what = f"{len(models)} {'groups' if grouped else 'models'}"
        if self.frame is not None and self.frame.update.pooled:
            parts = "folds" if self.frame.update.folds else "groups"
            what = f"all rows and {len(models) - 1} {parts}"
            every = len(self.frame.update.models) - 1
            if self._folded() and len(models) - 1 < every:  # not every fold's curve
                shown = [n for _, n, _ in models[1:]]  # all rows' is first
                if not shown:
                    return longest_fitting(
                        self.size.width - 6,
                        f"{name} of all rows (F: each of {every} folds in turn){log}",
                        f"{name} of all rows, {every} folds{log}",
                        f"{short}, all rows",
                    )
                many = "folds" if len(shown) > 1 else "fold"
                what = f"all rows and {many} {' and '.join(shown)} of {every}"
        wordings = (
            f"{name}s of {what}{log}",
            f"{short} curves of {what}{log}",
            f"{short} curves of {what}",
            f"{short}, {what}",
        )
        return longest_fitting(self.size.width - 6, *wordings)

    def render(self) -> RenderResult:
        """The curve, built once per prepared curve and size, with the active point
        laid over it as ``O`` at the cell its exact (x, y) falls in.

        plotext redraws every point in Python; doing that on every key press
        was most of the time a threshold move took, so only the marker moves.
        """
        frame = self.frame
        width, height = self.content_region.width, self.content_region.height
        if frame is None or width < 12 or height < 6:
            return Text("")
        prepared = frame.ready
        if prepared is None or self.line_kind not in prepared.kinds:
            return Text(f"Drawing the {self.kind.upper()} curve of these rows…", style="dim")
        line = self._line(prepared)
        band = self._bands()
        others = prepared.others
        key = (
            self.line_kind,
            *self._look(width, height),
            band and band.source,
            others,
            frame.update.asked.partial_aucs,
            self.draws_hull,
            self.smoothed,
            self._fold_band(),
            str(self._drawn()),  # compared by value: a tuple would be by identity
            self._no_point(),  # the legend (on the axis name's line at 80x24) says why
        )
        if self._base is None or self._base[0] is not line or not same_key(self._base[1], key):
            lines, place = self._build(frame, line, width, height)
            self._base = (line, key, lines, place)
        lines, (left, top, cols, rows) = list(self._base[2]), self._base[3]
        # Each group at its own threshold: no one point of these curves is active; the
        # groups' pooled counts are a point of their own (O), off the pooled curve.
        if frame.own is not None:
            drawn = None if line is None else self._pooled_point(frame.own)
        else:
            drawn = None if line is None else line.at(frame.analysis.point)
        self.active_cell = None
        if drawn is not None:
            x, y = drawn
            col, row = left + cell_of(x, cols), top + rows - 1 - cell_of(y, rows)
            self.active_cell = (col, row)
            marked = lines[row][:col]
            marked.append(ACTIVE_MARK, style=self.get_component_rich_style("curve-chart--active"))
            marked.append_text(lines[row][col + 1 :])
            lines[row] = marked
        low = self._low_point(line)
        if low is not None:
            col, row = left + cell_of(low[0], cols), top + rows - 1 - cell_of(low[1], rows)
            if (col, row) != self.active_cell:
                marked = lines[row][:col]
                style = self.get_component_rich_style("curve-chart--active")
                marked.append(LOW_MARK, style=style)
                marked.append_text(lines[row][col + 1 :])
                lines[row] = marked
        self.drawn_at(self.active_cell)
        return Text("\n").join(lines)

    #: Marks drawn in the baseline's fainter colour.
    faint_marks: frozenset[str] = frozenset({CHANCE_MARK, PARTIAL_MARK, HULL_MARK, SMOOTH_MARK})

    def _axes(self) -> tuple[str, str]:
        if self.kind == "det":
            return ("FPR (probit scale)", "FNR")
        if self.kind == "roc":
            return ("FPR (log scale)" if self.log_fpr else "FPR", "TPR")
        return ("recall", "precision")

    def _x_axis(self, frame: Frame, available: int) -> tuple[int, tuple[float, ...]]:
        """The columns the plot takes of ``available``, and where on 0..1 its x ticks
        are (each on a column; labels of four characters, a space apart at least; a
        scaled axis's own ticks, kept as far apart as their labels need)."""
        cols = plot_cells(available)
        scaled = self._scaled()
        if scaled is None:
            self._xlabels = {}
            return cols, unit_ticks(cols, 5)
        ticks = scaled.xscale.ticks(cols, 1, across=True)
        self._xlabels = dict(ticks)
        return cols, tuple(u for u, _ in ticks)

    def _y_ticks(self, rows: int) -> tuple[tuple[float, str], ...]:
        """The y axis's ticks, (place on 0..1, label), on an axis of ``rows`` rows."""
        scaled = self._scaled()
        if scaled is not None and scaled.yscale.kind != "linear":
            return scaled.yscale.ticks(rows, 2)
        return tuple((v, tick_text(v)) for v in unit_ticks(rows, 2))

    def _canvas(self, frame: Frame, line: CurveLine | None, cols: int, rows: int) -> list[str]:
        """plotext's drawing of the baseline and the curve on a bare ``cols`` x ``rows``
        canvas whose corners are (0, 0) and (1, 1), as plain text."""
        plt = self._bare(cols, rows)
        band = self._band()
        if band is not None and line is not None:
            b = band
            mark = BAND_MARK_ASCII if self.ascii else BAND_MARK
            plt.plot(b.x.tolist(), b.low.tolist(), marker=mark)
            plt.plot(b.x.tolist(), b.high.tolist(), marker=mark)
        scaled = self._scaled()
        if self.kind == "roc":  # each partial AUC's range, its two edges
            place = (lambda v: float(scaled.xscale.unit(v))) if scaled else (lambda v: v)
            for focus, low, high in frame.update.asked.partial_aucs:
                for v in (low, high):
                    if focus == "fpr":
                        plt.plot([place(v)] * 2, [0.0, 1.0], marker=PARTIAL_MARK)
                    else:
                        plt.plot([0.0, 1.0], [v, v], marker=PARTIAL_MARK)
        if self.kind == "det":  # FNR = 1 − FPR: on probit axes, z(FNR) = −z(FPR)
            plt.plot([0, 1], [1, 0], marker=CHANCE_MARK)
        elif scaled is not None:  # TPR = FPR, along the log axis
            at = scaled.xscale.rate(np.linspace(LOG_GAP, 1.0, 2 * cols))
            plt.plot(
                [0.0, *scaled.xscale.unit(at).tolist()], [0.0, *at.tolist()], marker=CHANCE_MARK
            )
        elif self.kind == "roc":
            plt.plot([0, 1], [0, 1], marker=CHANCE_MARK)
            cost = frame.readings.cost
            if self.draws_hull and cost is not None:
                hull = cost.hull
                plt.plot([v.fpr for v in hull], [v.tpr for v in hull], marker=HULL_MARK)
            smoothed = self.smoothed
            if smoothed is not None:
                plt.plot(smoothed.fpr.tolist(), smoothed.tpr.tolist(), marker=SMOOTH_MARK)
        else:
            prevalence = frame.analysis.metrics["prevalence"].value or 0.0
            plt.plot([0, 1], [prevalence, prevalence], marker=CHANCE_MARK)
        prepared = frame.ready
        drawn_models = self._drawn()
        for other in () if prepared is None else prepared.others:
            curve = self._other_line(other)
            if drawn_models is not None and other.index not in drawn_models:
                continue
            if curve is not None:
                xs, ys = curve.path()
                plt.plot(xs.tolist(), ys.tolist(), marker=model_mark(other.index, self.ascii))
        if line is not None:  # the shown model's last, over the others
            xs, ys = line.path()
            plt.plot(xs.tolist(), ys.tolist(), marker=self._shown_mark(frame))
        drawn = plain_canvas(plt, cols, rows)
        if band is not None and line is not None:
            b = band
            beside = _beside(b, *line.path())
            drawn = self._band_clear_of_the_curve(drawn, b, cols, rows, beside)
        return drawn

    def _band_clear_of_the_curve(
        self, drawn: list[str], band: Band, cols: int, rows: int, beside: Band | None = None
    ) -> list[str]:
        """A band narrower than a cell sits in the cells the curve takes (braille fills
        a whole cell), so one side vanished: each side's dot the curve covers is moved
        outward, above the upper side and below the lower, to the first free cell
        within two, so both sides show wherever the canvas has room. ``beside`` (NaN
        where a side is the curve's own value) keeps a band of no width on the curve."""
        mark = BAND_MARK_ASCII if self.ascii else BAND_MARK
        grid = [list(row) for row in drawn]
        at = np.linspace(0.0, 1.0, cols)  # each column's x on the unit square
        where = band if beside is None else beside
        for ys, apart, step in ((band.high, where.high, -1), (band.low, where.low, 1)):
            leaves = ~np.isnan(np.interp(at, band.x, apart))
            plt = self._bare(cols, rows)
            plt.plot(band.x.tolist(), ys.tolist(), marker=mark)
            side = plain_canvas(plt, cols, rows)
            for r, row in enumerate(side):
                for c, ch in enumerate(row):
                    if ch != mark or not leaves[c] or not _is_curve(grid[r][c], self.ascii):
                        continue  # moved only off the curve's own cells
                    for k in (r + step, r + 2 * step):
                        if 0 <= k < rows and grid[k][c] == " ":
                            grid[k][c] = mark
                            break
        return ["".join(row) for row in grid]


def partial_words(frame: Frame) -> tuple[str, ...]:
    """Each partial AUC asked for, in a few words."""
    words = tuple(partial_auc_short(p) for p in frame.readings.partial)
    many = "ranges" if len(words) > 1 else "range"
    return (*words, f"{PARTIAL_MARK} marks its {many} on the chart") if words else ()


def scaled_items(frame: Frame, kind: str) -> list[str]:
    """What a chart on scaled axes could not place: the DET curve's points with a rate
    of 0 or 1, the log axis's points at FPR 0 (and, on either, points past the axis's
    end), and where the active point is when it is off the chart."""
    prepared = frame.ready
    line = None if prepared is None else prepared.line(kind)
    if not isinstance(line, ScaledLine):
        return []
    items = []
    point = frame.analysis.point
    if kind == "det":
        items.append(
            f"{format_count(line.left_out)} of the DET curve's {format_count(line.points)} points "
            "left out (a rate of 0 or 1 is off probit axes)"
        )
        if line.at(point) is None:
            items.append("the active point is not on it (its FPR or FNR is 0 or 1)")
    else:
        many = "point sits" if line.on_axis == 1 else "points sit"
        items.append(f"{format_count(line.on_axis)} {many} at FPR 0, on the axis (0)")
    if line.beyond:
        items.append(f"{format_count(line.beyond)} past {line.xscale.ends}, drawn at the edge")
    return items
