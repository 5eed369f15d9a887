"""Resolve what a user names on the command line: a file path or a preset."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.data.dataset import Dataset
from core.data.loaders import Columns, load_file
from core.data.presets import PRESET_NAMES, PRESETS
from core.errors import InputError
from core.threshold import Threshold


@dataclass(frozen=True)
class Source:
    """Loaded data, where it came from, and the threshold it opens at."""

    data: Dataset
    label: str
    threshold: Threshold = 0.5
    path: Path | None = None


def open_source(name: str, cols: Columns = Columns(), *, aggregated: bool | None = None) -> Source:
    """A file when ``name`` is an existing path, else a preset of that name.

    >>> open_source("canonical").data.n
    5
    """
    path = Path(name)
    if _there(path):
        return Source(data=load_file(path, cols, aggregated=aggregated), label=str(path), path=path)
    if name in PRESETS:
        p = PRESETS[name]
        return Source(data=p.data, label=f"preset {name}", threshold=p.threshold)
    raise InputError(
        f"{name}: no such file, and no preset has that name (presets: {', '.join(PRESET_NAMES)})"
    )


def _there(path: Path) -> bool:
    """Whether ``path`` names something, even something we may not read (then
    :func:`load_file` says why, rather than the name being taken for a preset)."""
    try:
        path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True
    return True
