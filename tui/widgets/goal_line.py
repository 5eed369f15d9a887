"""The goal line under the threshold bar: what a goal chose and why, and the headline
metrics at the deployment prevalence. Shown only while a goal or a prevalence is set."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from threshold_lab.core.text.deciding import goal_words, prevalence_headline
from threshold_lab.core.text.scores import threshold_words
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.widgets.text import ItemLines


class GoalLine(ItemLines):
    """``Goal max precision where recall >= 0.9 · threshold 0.42 (here) · precision 3/4
    · recall 9/10 (>= 0.9, slack 0) · same decisions for 0.38 < t <= 0.42``."""

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""

    def watch_frame(self, frame: Frame | None) -> None:
        deciding = None if frame is None else frame.update.deciding
        self.display = deciding is not None
        if frame is None or deciding is None:
            return
        items: list[Text | str] = []
        a = frame.analysis
        head, said = goal_words(deciding, a.point, a.sweep.thresholds)
        if head:
            items.append(Text(head, style="bold"))
            items += said
        at, p = frame.readings.at_prevalence, deciding.prevalence
        if at is not None and p is not None:
            t = threshold_words(a.threshold, a.sweep.thresholds)
            heading, shown = prevalence_headline(at, p, f"threshold {t}")
            items.append(Text(heading, style="bold") + Text(shown))
        # Shorter forms for a narrow screen (two lines at 80 columns): the bounds and the
        # prevalence's headline metrics stay longest; the whole story is in the message
        # the goal said when it was set.
        if deciding.goal is None:
            self.show_items(items)
            return
        first, rest = items[:3], items[3:]
        bounds = [i for i in rest if "slack" in str(i)]
        prevalence = [i for i in rest if str(i).startswith("At prevalence")]
        self.show_items(items, first + bounds + prevalence, first + bounds, first)

    def lines_wanted(self, width: int) -> int:
        return 2 if width < 98 else 3
