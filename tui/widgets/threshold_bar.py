"""The threshold control's display: value, rule and place in the sweep."""

from __future__ import annotations

from textual.reactive import reactive

from core.analysis import Analysis
from core.text.sentences import tie_group_text
from core.threshold import format_threshold
from tui.widgets.text import TextLines


class ThresholdBar(TextLines):
    """Shows ``Threshold 0.5 · positive if score >= t · tie group 3 of 4``."""

    analysis: reactive[Analysis | None] = reactive(None)

    def watch_analysis(self, a: Analysis | None) -> None:
        if a is None:
            return
        t = format_threshold(a.threshold)
        rule = (
            "nothing is predicted positive" if a.threshold is None else f"positive if score >= {t}"
        )
        self.show(f"[b]Threshold {t}[/b]  ·  {rule}  ·  {tie_group_text(a)}")
