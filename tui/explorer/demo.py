"""The scripted tour of ``--demo``: a caption per step, any key ends it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.events import Key
from textual.timer import Timer
from threshold_lab.core.session.session import Session
from threshold_lab.core.session.update import Update
from threshold_lab.tui.state.chart_modes import ChartMode
from threshold_lab.tui.state.host import Host
from threshold_lab.tui.widgets.panes import Pane


@dataclass(frozen=True)
class DemoStep:
    """One step of the tour: its caption, what it does, and what it shows: the pane its
    caption speaks of (where one pane shows at a time) and the chart, if it names one."""

    caption: str
    act: Callable[[Session], Update]
    pane: Pane
    chart: ChartMode | None


#: The tour, one step at a time.
DEMO: tuple[DemoStep, ...] = (
    DemoStep(
        "Demo 1/9: five hand-authored rows at threshold 0.5; precision, recall and F1 are "
        "all 2/3, but their denominators differ.",
        lambda s: s.load_preset("canonical"),
        "matrix",
        "roc",
    ),
    DemoStep(
        "Demo 2/9: raise the threshold to 0.81: precision rises to 1, recall falls to 1/3.",
        lambda s: s.set_threshold(0.81),
        "matrix",
        "roc",
    ),
    DemoStep(
        "Demo 3/9: above all scores nothing is predicted positive: precision is undefined, "
        "with its reason, never 0.",
        lambda s: s.set_threshold(None),
        "matrix",
        "roc",
    ),
    DemoStep(
        "Demo 4/9: lower the threshold one tie group: the 0.9 positive enters; the ROC "
        "point moves up.",
        lambda s: s.group(1),
        "chart",
        "roc",
    ),
    DemoStep(
        "Demo 5/9: the two 0.8 rows, one of each class, enter together: one diagonal ROC "
        "step, never split.",
        lambda s: s.group(1),
        "chart",
        "roc",
    ),
    DemoStep(
        "Demo 6/9: the lowest score: everything is predicted positive, the ROC point (1, 1).",
        lambda s: s.lowest(),
        "chart",
        "roc",
    ),
    DemoStep(
        "Demo 7/9: average precision 5/6 and the trapezoid PR area 19/24 summarise the same "
        "points differently.",
        lambda s: s.load_preset("ap-vs-trapezoid"),
        "chart",
        "pr",
    ),
    DemoStep(
        "Demo 8/9: 4 positives, 16 negatives: accuracy 0.8, exactly what always saying "
        "negative scores.",
        lambda s: s.load_preset("imbalanced"),
        "matrix",
        None,
    ),
    DemoStep(
        "Demo 9/9: model B has the higher AUC (7/8) but the lower AP (7/12) than model A. "
        "Press any key to explore; ? lists every key.",
        lambda s: s.load_preset("delivery-b"),
        "chart",
        "both",
    ),
)


class DemoTour:
    """Steps through :data:`DEMO` every ``3 × seconds``; after the last step it ends."""

    def __init__(self, host: Host, seconds: float) -> None:
        self.host = host
        self.seconds = seconds
        self._step: int | None = None
        self._timer: Timer | None = None

    @property
    def running(self) -> bool:
        return self._step is not None

    def start(self) -> None:
        self._step = 0
        self.advance()
        self._timer = self.host.every(3 * self.seconds, self.advance)

    def advance(self) -> None:
        """Show the next step of the tour."""
        if self._step is None or self._step >= len(DEMO):
            self.stop()
            return
        step = DEMO[self._step]
        session = self.host.session
        self.host.run(lambda: step.act(session))
        self.host.show_view(step.pane, step.chart)
        self.host.say(step.caption)
        self._step += 1

    def interrupt(self, key: Key) -> None:
        """End the tour on a key, which does nothing else (nothing changes by surprise)."""
        key.stop()
        key.prevent_default()
        self.stop()
        self.host.say("Demo stopped. Explore freely; ? lists every key.")

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._step = None
