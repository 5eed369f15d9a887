"""The statistics the widgets read of a frame besides its drawing, worked out once
when the frame is made, so that nothing is computed while a widget lays itself out
or renders.

Each is read only where the chart mode shown reads it (the decision curve is a pass
over the sweep for each of its thresholds; calibration, KS and the cost curve each
a pass): :data:`Readings.read` names those worked out. Those that do not move with
the threshold are kept from the frame before for the same rows (the partial AUCs
and the readouts, which core does not keep), and a frame made again for another
chart mode keeps everything its update's frame read before, so a panel still
laying out the mode before finds what it reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar, cast

from threshold_lab.core.calibration.gains import KS, Gains
from threshold_lab.core.calibration.reliability import Calibration
from threshold_lab.core.curves.hull import CostCurve
from threshold_lab.core.curves.operating import PartialAUC, Readout
from threshold_lab.core.curves.smooth import NotSmoothed, Smoothed
from threshold_lab.core.decide.net_benefit import DecisionCurve, net_benefit_key
from threshold_lab.core.drawing.prepared import Prepared
from threshold_lab.core.intervals.closed import percent
from threshold_lab.core.measures import Measure
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.session.groups import PooledAnalysis
from threshold_lab.core.session.update import Update
from threshold_lab.tui.state.chart_modes import ChartMode

T = TypeVar("T")

#: A bootstrap's interval on net benefit at each of the decision curve's pt: the pt,
#: the low ends and the high ends.
DecisionBand = tuple[list[float], list[float], list[float]]

#: What every chart mode reads (the metrics panel's readouts and partial AUCs, the
#: band's confidence as the legends say it).
ALWAYS = frozenset({"partial", "readouts", "band_percent"})


@dataclass(frozen=True, eq=False)
class Readings:
    """What the widgets read of one Update besides its drawing.

    Attributes
    ----------
    update : the Update these were read from (None: nothing read)
    read : the names of the readings worked out; any other is None (or empty)
    partial : each partial AUC asked for (``--partial-auc``)
    readouts : each operating point at a fixed rate asked for (``--readout``)
    band_percent : a bootstrap band's confidence as legends say it (``95%``), or ""
    ranking : ROC AUC, AP and the PR area with their intervals, once the rows'
        summaries are in (None while they are being prepared)
    measures : every threshold metric with its interval (None: intervals are off)
    at_prevalence : every threshold metric at the deployment prevalence, or None
    calibration : the reliability table (the reliability diagram)
    ks, gains : KS and the cumulative gains curve (the gains chart)
    cost : the ROC convex hull and the cost curves (the cost chart, the ROC hull)
    f1_peak : F1's largest value and its point (the metric chart)
    decision : the decision curve on the grid asked for (the decision chart)
    decision_band : a bootstrap's interval on net benefit at the grid's pt, or None
    net_benefit : the model's net benefit at the active threshold, where it has one
    smoothed : the ROC curve smoothed by the method the ROC chart draws (z), or None
    """

    update: Update | None = None
    read: frozenset[str] = frozenset()
    partial: tuple[PartialAUC, ...] = ()
    readouts: tuple[Readout, ...] = ()
    band_percent: str = ""
    ranking: tuple[Measure, Measure, Measure] | None = None
    measures: dict[str, Measure] | None = None
    at_prevalence: dict[str, Metric] | None = None
    calibration: Calibration | None = None
    ks: KS | None = None
    gains: Gains | None = None
    cost: CostCurve | None = None
    f1_peak: tuple[int, Metric] | None = None
    decision: DecisionCurve | None = None
    decision_band: DecisionBand | None = None
    net_benefit: float | None = None
    smoothed: Smoothed | NotSmoothed | None = None


#: A frame's readings before any are worked out (a frame made bare, as a test makes one).
NOTHING_READ = Readings()


def wanted(
    mode: ChartMode, *, hull: bool, ready: Prepared | None, smooth: str = ""
) -> frozenset[str]:
    """What the widgets read with the chart panel in ``mode`` (``hull``: the ROC chart
    draws its convex hull; ``smooth``: a smoothed curve beside it) and ``ready`` the
    prepared drawing of these rows, if any:
    each is read where the widgets would first read it, never sooner (a statistic of
    large rows waits for the worker that prepares them where the chart waits too).

    >>> sorted(wanted("reliability", hull=False, ready=None) - ALWAYS)
    ['calibration']
    >>> sorted(wanted("decision", hull=True, ready=None) - ALWAYS)
    ['decision', 'decision_band', 'net_benefit']
    """
    names = set(ALWAYS)
    if mode == "reliability":
        names.add("calibration")
    if mode == "metrics":
        names.add("f1_peak")
    if mode == "decision":
        names |= {"decision", "decision_band", "net_benefit"}
    if mode == "cost" or (hull and ready is not None):
        names.add("cost")
    if smooth and ready is not None and mode in ("roc", "both"):
        names.add("smoothed")
    if mode == "gains" and ready is not None:
        names.add("ks")
        if "gains" in ready.kinds:
            names.add("gains")
    return frozenset(names)


def read(
    update: Update,
    ready: Prepared | None,
    *,
    mode: ChartMode,
    hull: bool = False,
    smooth: str = "",
    before: Readings | None = None,
) -> Readings:
    """The readings of ``update`` for the chart panel in ``mode`` (see :func:`wanted`),
    ``ready`` the prepared drawing of its rows (None: still being prepared). From
    ``before``, the readings of the frame before: everything when it read the same
    update, and the partial AUCs and readouts when it read the same rows."""
    a = update.analysis
    curves, asked = a.curves, update.asked
    same = before if before is not None and before.update is update else None
    kept = frozenset() if same is None else same.read
    if same is not None and (same.smoothed is None or same.smoothed.method != smooth):
        kept -= {"smoothed"}  # another method (or none) asked for: read afresh
    names = wanted(mode, hull=hull, ready=ready, smooth=smooth) - kept

    def one(name: str, work: Callable[[], T]) -> T | None:
        """``work()`` when ``name`` is to be read now, else what the same update's
        frame read (None where it read nothing)."""
        if name in names:
            return work()
        return None if same is None else cast("T | None", getattr(same, name))

    last = None if before is None else before.update
    if before is None or last is None or last.analysis.curves is not curves:
        partial = readouts = None  # other rows: read afresh
    else:
        partial = before.partial if last.asked.partial_aucs == asked.partial_aucs else None
        readouts = before.readouts if last.asked.readouts == asked.readouts else None
    bands = update.bands
    decision = one("decision", lambda: update.decision_curve)
    return Readings(
        update=update,
        read=kept | names,
        partial=asked.partial(a.sweep) if partial is None else partial,
        readouts=asked.read(a.sweep) if readouts is None else readouts,
        band_percent="" if bands is None else percent(bands.confidence),
        # The update's own, kept on it: read again for the same update, nothing is.
        ranking=None if ready is None else update.ranking,
        measures=None if update.sure is None else update.measures,
        at_prevalence=update.at_prevalence,
        calibration=one("calibration", curves.calibration),
        ks=one("ks", lambda: curves.ks),
        gains=one("gains", lambda: curves.gains),
        cost=one("cost", lambda: curves.cost_curve),
        f1_peak=one("f1_peak", lambda: update.f1_peak),
        decision=decision,
        decision_band=one("decision_band", lambda: decision_band(update, decision)),
        net_benefit=one("net_benefit", lambda: net_benefit_here(update)),
        smoothed=one("smoothed", lambda: curves.smoothed(smooth)) if smooth else None,
    )


def decision_band(update: Update, decision: DecisionCurve | None) -> DecisionBand | None:
    """A finished bootstrap's interval on net benefit at each pt of ``decision``'s grid
    (pt, low, high), or None (no bootstrap, or no interval anywhere)."""
    sure = update.sure
    if decision is None or sure is None or sure.boot is None:
        return None
    xs, lows, highs = [], [], []
    for row in decision.grid:
        e = sure.estimate(net_benefit_key(row.pt))
        if e.interval is not None:
            xs.append(float(row.pt))
            lows.append(e.interval.low)
            highs.append(e.interval.high)
    return (xs, lows, highs) if xs else None


def net_benefit_here(update: Update) -> float | None:
    """The model's net benefit at the active threshold, where the decision chart marks
    it: a threshold strictly between 0 and 1, one for all rows (not each group at its
    own), and net benefit defined for these rows."""
    a = update.analysis
    t = None if isinstance(a, PooledAnalysis) else a.threshold
    series = update.decision_series(None, 1)
    if series.weights is None or t is None or not 0 < t < 1:
        return None
    return series.at(a.curves, t)
