"""The Figure a report draws: matplotlib's, shown as an image where it is displayed.

Imported only when a figure is drawn (matplotlib is the [plot] extra). The figure is
made without pyplot, so a plain Python session never opens a window for it; a notebook
(IPython's display protocol) shows it as a PNG, once, with no ``%matplotlib`` magic.
"""

from __future__ import annotations

import io

from matplotlib.figure import Figure


class ReportFigure(Figure):
    """A matplotlib Figure that a notebook shows as a PNG."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png")
        return buffer.getvalue()
