"""The models line under the threshold bar: every model of these rows at the
threshold, one a line, the shown one starred. Shown only with several models."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from tui.explorer.frame import Frame
from tui.widgets.text import TextLines, wrap_items


class ModelLine(TextLines):
    """``A* AUC 13/16 (95% CI 0.40 to 1.00) · AP 7/10 · P 1/3 R 1/2 F1 2/5`` per model,
    then which key shows another."""

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""

    def watch_frame(self, frame: Frame | None) -> None:
        rows = () if frame is None else frame.update.models
        klass = None if frame is None else frame.update.klass
        self.display = bool(rows) or klass is not None
        if self.display:
            self.refresh_lines()

    def on_resize(self) -> None:
        self.refresh_lines()

    def refresh_lines(self) -> None:
        frame = self.frame
        rows = () if frame is None else frame.update.models
        klass = None if frame is None else frame.update.klass
        if klass is not None:  # several classes: which one is "1" here
            width = max(self.content_region.width, 20)
            items = [Text(f"Class {klass} against the rest (1 = {klass})", style="bold"),
                     Text("C: next", style="dim"), Text("K: all classes", style="dim")]  # fmt: skip
            self.show(Text("\n").join(wrap_items(items, width)))
            return
        if not rows:
            return
        width = max(self.content_region.width, 20)
        lines: list[Text] = []
        for row in rows:
            items = [Text(i, style="bold" if row.shown else "") for i in row.items()]
            lines += wrap_items(items, width)
        if self.app.size.height >= 40:  # below that the rows go to the panes (? lists M)
            shown = next(r.name for r in rows if r.shown)
            by = frame.update.group_by if frame is not None else None
            what = "model" if by is None else f"group (groups by {by}: different rows)"
            lines.append(Text(f"* shown: {shown}; M shows the next {what}", style="dim"))
        self.show(Text("\n").join(lines))
