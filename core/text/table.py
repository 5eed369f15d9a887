"""Text tables: columns as wide as their widest cell."""

from __future__ import annotations


def table(header: list[str], rows: list[list[str]], left: tuple[int, ...] = (0,)) -> list[str]:
    """Columns as wide as their widest cell, those in ``left`` aligned left.

    >>> print("\\n".join(table(["a", "b"], [["xx", "1"], ["y", "22"]])))
    a    b
    xx   1
    y   22
    """
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" if i in left else f"{{:>{w}}}" for i, w in enumerate(widths))
    return [fmt.format(*header).rstrip(), *(fmt.format(*r).rstrip() for r in rows)]
