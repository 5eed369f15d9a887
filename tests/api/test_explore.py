"""``threshold_lab.explore`` runs the explorer in the caller's terminal (a real
pseudo-terminal here) and hands back the threshold and the rows as edited."""

from __future__ import annotations

import os
import sys

from tests.terminal import read_terminal, spawn_in_terminal

SCRIPT = (
    "import sys, threshold_lab as tl\n"
    "before = 'textual' in sys.modules\n"
    "e = tl.explore([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1], threshold=0.5)\n"
    "print('RESULT', e.threshold, e.y_score.tolist(), e.y_true.tolist(), before,\n"
    "      'textual' in sys.modules, e.report().counts, flush=True)\n"
)


def test_explore_returns_the_threshold_and_the_edited_rows(tmp_path) -> None:  # type: ignore[no-untyped-def]
    proc, master = spawn_in_terminal([sys.executable, "-c", SCRIPT], tmp_path)
    try:
        out = read_terminal(master, 20, until=b"positive if score")  # the screen is up
        out += read_terminal(master, 1.5)
        for keys in (b"\x1b[C", b"a", b"\r", b"q"):  # +0.01, add the row "0.5 1", quit
            os.write(master, keys)
            out += read_terminal(master, 1.0)
        out += read_terminal(master, 15, until=b"RESULT")
        out += read_terminal(master, 2)
        assert proc.wait(timeout=15) == 0
    finally:
        proc.kill()
        os.close(master)
    line = next(x for x in out.decode(errors="replace").splitlines() if "RESULT" in x)
    assert line.split("RESULT", 1)[1].strip() == (
        "0.51 [0.9, 0.8, 0.8, 0.4, 0.1, 0.5] [True, False, True, False, True, True] False True "
        "Counts(tp=2, fp=1, tn=1, fn=2)"
    )
