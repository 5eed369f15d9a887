"""The goal line under the threshold bar: what a goal chose and why, and the headline
metrics at the deployment prevalence. Shown only while a goal or a prevalence is set."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from threshold_lab.core.decide.solve import WORDS, slack_text
from threshold_lab.core.decide.text import PREVALENCE_WORDS
from threshold_lab.core.metrics.metric import fraction_text
from threshold_lab.tui.explorer.frame import Frame
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
        a = frame.analysis
        items: list[Text | str] = []
        if deciding.goal is not None:
            at_p = (
                ""
                if deciding.prevalence is None
                else f" at prevalence {fraction_text(deciding.prevalence)}"
            )
            items.append(Text(f"Goal {deciding.goal.text()}{at_p}", style="bold"))
            d = deciding.decision
            if d is None:
                items.append(f"cannot be solved: {deciding.problem}")
            else:
                where = "above all scores" if d.threshold is None else f"threshold {d.threshold!r}"
                if not d.feasible:
                    items.append(f"not feasible: {d.reason}; closest {where}")
                else:
                    here = "here" if a.point == d.index else "d re-applies it"
                    value = d.objective.short() if d.objective.value is not None else "undefined"
                    items.append(f"-> {where} ({here})")
                    items.append(f"{WORDS[d.goal.metric]} {value}")
                items += [slack_text(s) for s in d.slacks]
                if d.attaining > 1:
                    items.append(f"{d.attaining} points attain it")
                items.append(
                    f"same decisions for {d.same_decisions_text().removeprefix('every threshold ')}"
                )
        at, p = frame.update.at_prevalence, deciding.prevalence
        if at is not None and p is not None:
            shown = ", ".join(f"{WORDS[n]} {at[n].short()}" for n in PREVALENCE_WORDS)
            head = Text(f"At prevalence {fraction_text(p)} (TPR, FPR, LR± kept): ", style="bold")
            items.append(head + Text(shown))
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
