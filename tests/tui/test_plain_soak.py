"""Plain-mode soak: seeded random commands, then undo everything.

Commands are drawn from every command plain mode has, with good and bad
arguments: row ids that exist and ones that do not, Unicode digits, numbers no
float holds, long lines, control characters. No command may raise; every
refusal is one line starting ``error:``; no output line carries a control
character; and undoing every edit gives back exactly the rows that were
loaded (the file's, or the last preset's).

``PLAIN_SOAK_COMMANDS`` sets the commands per seed (CI: 3,000).
"""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.data.presets import PRESET_NAMES, preset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.plain import PlainSession

from tests.paths import DATA

COMMANDS = int(os.environ.get("PLAIN_SOAK_COMMANDS", "3000"))

WEIRD = [
    "", "0", "1", "-1", "0.5", "1e308", "-1e308", "1e400", "nan", "inf", "-inf", "above-all",
    "9" * 400, "1" + "0" * 5000, "\u0663", "\u00b2", "1_000", "0x10", "  ", "\t", "\x1b[2J",
    "\u202e", "é", "'", '"', "\\", "\\n", "TP", "fp", "high", "low", "file", "force",
    "overwrite", "score", "label", "x" * 3000, "\ud800",
]  # fmt: skip

WORDS = [
    "threshold", "next", "prev", "lowest", "step", "play", "status", "rows", "boundary",
    "set", "label", "add", "delete", "undo", "redo", "reset", "preset", "presets", "metrics",
    "explain", "sweep", "roc", "pr", "save", "help", "nonsense", "THRESHOLD", "Rows",
    "intervals", "bootstrap", "models", "model", "compare", "calibration", "gains", "ks",
    "transform", "classes", "class", "multiclass",
]  # fmt: skip

METRICS = ["precision", "recall", "f1", "mcc", "auc", "ap", "fpr", "lr+", "nonsense"]


def rows_of(data: Dataset) -> list[tuple[str, float, bool]]:
    return [(data.row_id(i), float(data.scores[i]), bool(data.labels[i])) for i in range(data.n)]


def command(rng: random.Random, session: Session, folder: Path) -> str:
    data = session.data
    row = data.row_id(rng.randrange(data.n)) if rng.random() < 0.8 else rng.choice(WEIRD)
    score = rng.choice(
        [repr(rng.random()), repr(float(data.scores[rng.randrange(data.n)])), rng.choice(WEIRD)]
    )
    word = rng.choice(WORDS)
    if word == "threshold":
        return f"threshold {score}"
    if word == "step":
        return f"step {rng.choice(['1', '-1', '5', '-20', rng.choice(WEIRD)])}"
    if word == "rows":
        args = rng.sample(
            ["TP", "FN", "differ", "high", "low", "file", "3", rng.choice(WEIRD)],
            rng.randint(0, 3),
        )
        return " ".join(["rows", *args])
    if word == "set":
        return f"set '{row}' score {score}"
    if word == "label":
        return f"label '{row}' {rng.choice(['0', '1', rng.choice(WEIRD)])}"
    if word == "add":
        return f"add {score} {rng.choice(['0', '1', rng.choice(WEIRD)])}"
    if word == "delete":
        return f"delete '{row}'"
    if word == "preset":
        name = rng.choice([*PRESET_NAMES, rng.choice(WEIRD)])
        return f"preset {name}" + (" force" if rng.random() < 0.5 else "")
    if word == "explain":
        return f"explain {rng.choice(METRICS)}"
    if word == "intervals":
        return f"intervals {rng.choice(['on', 'off', '0.9', '0.5', '1', '95%', rng.choice(WEIRD)])}"
    if word == "bootstrap":
        b = rng.choice(["2", "100", "120", "off", "1", "0", rng.choice(WEIRD)])
        seed = rng.choice(["", " seed 3", " seed -1", f" seed {rng.choice(WEIRD)}"])
        return f"bootstrap {b}{seed}"
    if word == "transform":
        names = ["square", "sqrt", "log", "logit", "expit", "rank", "affine:2,1", "affine:-1,0"]
        return f"transform {rng.choice([*names, rng.choice(WEIRD)])}"
    if word == "calibration":
        return f"calibration {rng.choice(['', '3', 'width', '0', '5 mass', rng.choice(WEIRD)])}"
    if word == "class":
        return f"class {rng.choice(['routine', 'urgent', 'critical', 'x', rng.choice(WEIRD)])}"
    if word == "model":
        names = ["A", "B", "C", "baseline", "candidate", "legacy", rng.choice(WEIRD)]
        return f"model {rng.choice(names)}"
    if word == "save":
        return f"save '{folder / rng.choice(['a.csv', 'b.csv', 'no/such/x.csv', ''])}'" + (
            " overwrite" if rng.random() < 0.5 else ""
        )
    if word == "play":
        return "play" if data.n < 50 else "status"
    if rng.random() < 0.1:
        return f"{word} {rng.choice(WEIRD)} {rng.choice(WEIRD)}"
    return word


def start(seed: int, folder: Path) -> Session:
    if seed == 6:  # #18: an aggregated file's groups, quantised
        from threshold_lab.core.data.sources import open_source

        # A copy in the test's folder: a save goes beside the file it was opened from.
        copy = folder / "slices.csv"
        copy.write_bytes((DATA / "slices.csv").read_bytes())
        src = open_source(str(copy))
        return Session(src.data, 0.5, source=src.label, path=src.path, models=src.models,
                       quantised=src.quantised, group_by=src.group_by)  # fmt: skip
    if seed % 2:
        p = preset(PRESET_NAMES[seed % len(PRESET_NAMES)])
        return Session(p.data, p.threshold, source=f"preset {p.name}", models=p.models,
                       multiclass=p.multiclass)  # fmt: skip
    rng = random.Random(seed)
    n = 30
    ids = [f"r{i}" for i in range(n - 3)] + ["a\nb", "c\x1bd", "e f"]
    data = make_dataset(
        [rng.choice([0.1, 0.5, 0.5, 0.9, rng.random()]) for _ in range(n)],
        [rng.random() < 0.4 for _ in range(n)],
        ids=ids,
    )
    return Session(data, 0.5, source="soak")


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 6, 11, 25])
def test_random_commands_never_raise_and_undo_returns_the_loaded_rows(
    tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    session = start(seed, tmp_path)
    base = rows_of(session.data)
    out = io.StringIO()
    plain = PlainSession(session, out)
    for step in range(COMMANDS):
        line = command(rng, session, tmp_path)
        said_before = len(out.getvalue())
        try:
            quitting = plain.run_line(line)
        except Exception as exc:  # pragma: no cover - the failure report
            raise AssertionError(f"seed {seed}, step {step}: {line!r} raised {exc!r}") from exc
        said = out.getvalue()[said_before:]
        for text in said.splitlines():
            assert text.isprintable(), (line, text)
            assert len(text) < 20_000, line
        if said.startswith("error:"):
            assert said.count("\n") == 1, (line, said)
        if line.split(" ", 1)[0] == "preset" and said.startswith("Loaded preset"):
            base = rows_of(session.data)
        if line.split(" ", 1)[0] == "model" and said.startswith(("Model ", "Group ")):
            base = rows_of(session.data)  # another model's rows, as loaded
        if line.split(" ", 1)[0] == "class" and said.startswith("Class "):
            base = rows_of(session.data)  # another class against the rest, as loaded
        if quitting:
            break
    for _ in range(COMMANDS + 1):
        if session.undo().message == "Nothing to undo.":
            break
    assert rows_of(session.data) == base
    assert rows_of(session.loaded[0]) == base
