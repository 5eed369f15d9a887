"""The models line under the threshold bar: every model of these rows at the
threshold, one a line, the shown one starred. Shown only with several models."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from threshold_lab.core.drawing.model_rows import ModelRow
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.widgets.text import TextLines, wrap_items


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
            items = [
                Text(f"Class {klass} against the rest (1 = {klass})", style="bold"),
                Text("C: next", style="dim"),
                Text("K: all classes", style="dim"),
            ]
            self.show(Text("\n").join(wrap_items(items, width)))
            return
        if not rows:
            return
        width = max(self.content_region.width, 20)
        room = MAX_LINES
        hint = None
        if self.app.size.height >= 40:  # below that the rows go to the panes (? lists M)
            shown = next(r.name for r in rows if r.shown)
            by = frame.update.group_by if frame is not None else None
            part = "fold" if frame is not None and frame.update.folds else "group"
            what = "model" if by is None else f"{part} ({part}s by {by}: different rows)"
            hint = Text(f"* shown: {shown}; M shows the next {what}", style="dim")
        self.show(Text("\n").join(fit_rows(rows, width, room, hint)))


#: The most lines the models take (the stylesheet's max-height for #model-line).
MAX_LINES = 4


def fit_rows(rows: Sequence[ModelRow], width: int, room: int, hint: Text | None) -> list[Text]:
    """Every model's line in ``room`` lines: in full (wrapped between items) when
    they fit, else one compact line each (no interval; F1 alone), else the shown model
    and as many others as fit, then how many more (M shows them). The hint, which key
    shows another, comes last when there is a line for it."""

    def styled(row: ModelRow, items: list[str]) -> list[Text]:
        return wrap_items([Text(i, style="bold" if row.shown else "") for i in items], width)

    full = [line for row in rows for line in styled(row, row.items())]
    if len(full) <= room:
        return full + ([hint] if hint is not None and len(full) < room else [])
    compact = [styled(row, row.compact_items()) for row in rows]
    if all(len(lines) == 1 for lines in compact) and len(rows) <= room:
        lines = [lines[0] for lines in compact]
        return lines + ([hint] if hint is not None and len(lines) < room else [])
    keep = room - 1
    order = sorted(range(len(rows)), key=lambda i: not rows[i].shown)[:keep]
    lines = [compact[i][0] for i in sorted(order)]
    more = len(rows) - len(lines)
    lines.append(Text(f"… and {more} more (M shows the next)", style="dim"))
    return lines
