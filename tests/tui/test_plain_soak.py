"""Plain-mode soak: seeded random commands, then undo everything.

Commands are drawn from every command plain mode has, with good and bad
arguments: row ids that exist and ones that do not, Unicode digits, numbers no
float holds, long lines, control characters. No command may raise; every
refusal is one line starting ``error:``; no output line carries a control
character; and undoing every edit gives back exactly the rows that were
loaded (the file's, or the last preset's).

Each kind of start is soaked with commands drawn from its number and the run's
``--hypothesis-seed``, so a new seed soaks new commands. The commands include
goals and prevalences with numbers past a double's range, deletes after a goal
on a cost column, and Ctrl-C arriving while a command writes; at the end a
hang-up writes the recovery file, which must hold the rows as they are.

``PLAIN_SOAK_COMMANDS`` sets the commands per seed (``make test``: 400; ``make
fuzz``: 50,000, the long soak).
"""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.data.presets import PRESET_NAMES, preset
from threshold_lab.core.session.edits import to_csv
from threshold_lab.core.session.session import Session
from threshold_lab.tui.plain import PlainSession

from tests.paths import DATA

COMMANDS = int(os.environ.get("PLAIN_SOAK_COMMANDS", "400"))

WEIRD = [
    "",
    "0",
    "1",
    "-1",
    "0.5",
    "1e308",
    "-1e308",
    "1e400",
    "nan",
    "inf",
    "-inf",
    "above-all",
    "9" * 400,
    "1" + "0" * 5000,
    "\u0663",
    "\u00b2",
    "1_000",
    "0x10",
    "  ",
    "\t",
    "\x1b[2J",
    "\u202e",
    "é",
    "'",
    '"',
    "\\",
    "\\n",
    "TP",
    "fp",
    "high",
    "low",
    "file",
    "force",
    "overwrite",
    "score",
    "label",
    "x" * 3000,
    "\ud800",
]

WORDS = [
    "threshold",
    "next",
    "prev",
    "lowest",
    "step",
    "play",
    "status",
    "rows",
    "boundary",
    "set",
    "label",
    "add",
    "delete",
    "undo",
    "redo",
    "reset",
    "preset",
    "presets",
    "metrics",
    "explain",
    "sweep",
    "roc",
    "pr",
    "save",
    "help",
    "nonsense",
    "THRESHOLD",
    "Rows",
    "intervals",
    "bootstrap",
    "models",
    "model",
    "compare",
    "calibration",
    "gains",
    "ks",
    "transform",
    "classes",
    "class",
    "multiclass",
    "goal",
    "prevalence",
    "groups",
    "group",
    "own",
    "group-goal",
    "walk",
    "n",
    "p",
    "first",
    "last",
    "braille",
    "sound",
    "describe",
    "band",
    "stability",
    "smooth",
    "power",
]

#: Numbers at and past the edges of a double, for goals and prevalences.
EXTREME = [
    "1e309",
    "1e999",
    "1e-320",
    "5e-324",
    "1e-300",
    "1e300",
    "1/3",
    "9/10/2",
    "1_0",
    "0.9999999999999999",
    "1e-400",
    "2.2250738585072014e-308",
    "-0",
    "0",
]

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
        names = ["A", "B", "C", "baseline", "candidate", "legacy", "all", rng.choice(WEIRD)]
        return f"model {rng.choice(names)}"
    if word == "group":
        names = ["baseline", "candidate", "legacy", "east", rng.choice(WEIRD)]
        return f"group {rng.choice(names)}"
    if word == "group-goal":
        crit = [
            "demographic_parity",
            "equal_opportunity",
            "equalized_odds",
            "predictive_parity",
            "same_goal",
            rng.choice(WEIRD),
        ]
        return f"group-goal {rng.choice(crit)} {rng.choice(['', '0.05', '0', '0.5', '2'])}"
    if word == "walk":
        how = [
            "roc",
            "pr",
            "det",
            "off",
            "to hull",
            "to chance",
            "to readout fpr 0.1",
            "to best max f1",
            f"to {rng.choice(WEIRD)}",
            rng.choice(WEIRD),
        ]
        return f"walk {rng.choice(how)}"
    if word == "braille":
        kind = rng.choice(["roc", "pr", "det", rng.choice(WEIRD)])
        return f"braille {kind} {rng.choice(['', '1', '40', '0', '5000', rng.choice(WEIRD)])}"
    if word == "sound":
        name = rng.choice(["a.wav", "b.mp3", "no/such/x.wav", rng.choice(WEIRD)])
        seconds = rng.choice(["", "0.05", "3", rng.choice(WEIRD)])
        return f"sound {rng.choice(['roc', 'pr', 'det'])} '{folder / name}' {seconds}"
    if word == "band":
        a, b = rng.choice(EXTREME), rng.choice([*EXTREME, "0.9", "1/2", "2"])
        return rng.choice(
            [
                f"band max coverage where precision >= {b} and npv >= {rng.choice(EXTREME)}",
                f"band min cost fp={a} fn={b} review={rng.choice(EXTREME)}",
                f"band min review where fdr <= {b}",
                f"band {rng.choice(WEIRD)}",
                "band",
            ]
        )
    if word == "stability":
        q = rng.choice(["1", "2", "0", "99", rng.choice(WEIRD)])
        return rng.choice(
            [
                "stability",
                "stability max f1",
                f"stability max f1 within {rng.choice(EXTREME)} in {q}",
                f"stability {rng.choice(WEIRD)}",
            ]
        )
    if word == "smooth":
        methods = ["binormal", "density", "normal", "binormal,density", "loess", ",", "fitdistr"]
        extra = [rng.choice(["nrd", "nrd0", "0.05", "SJ", *WEIRD])] if rng.random() < 0.3 else []
        return " ".join([word, *rng.sample(methods, 1), *extra])
    if word == "power":
        pairs = [
            (w, rng.choice([rng.choice(EXTREME), rng.choice(WEIRD), "0.7", "40", "0.9", "2"]))
            for w in rng.sample(
                [
                    "auc",
                    "cases",
                    "controls",
                    "kappa",
                    "sig_level",
                    "power",
                    "a1",
                    "b1",
                    "a2",
                    "b2",
                    "rn",
                    "ra",
                    "delta",
                    "bogus",
                ],
                rng.randint(0, 5),
            )
        ]
        head = ["power", "models"] if rng.random() < 0.3 else ["power"]
        return " ".join([*head, *(f"{w} {v}" for w, v in pairs)])
    if word == "describe":
        return f"describe {rng.choice(['roc', 'pr', 'det', rng.choice(WEIRD)])}"
    if word == "save":
        return f"save '{folder / rng.choice(['a.csv', 'b.csv', 'no/such/x.csv', ''])}'" + (
            " overwrite" if rng.random() < 0.5 else ""
        )
    if word == "play":
        return "play" if data.n < 50 else "status"
    if word == "goal":
        a, b = rng.choice(EXTREME), rng.choice([*EXTREME, "@amount", "5"])
        return rng.choice(
            [
                f"goal min cost fp={a} fn={b}",
                f"goal max precision where recall >= {a}",
                "goal min cost fp=1 fn=@amount",
                "goal off",
                f"goal {rng.choice(WEIRD)}",
            ]
        )
    if word == "prevalence":
        return f"prevalence {rng.choice([*EXTREME, '1/20', 'off', rng.choice(WEIRD)])}"
    if rng.random() < 0.1:
        return f"{word} {rng.choice(WEIRD)} {rng.choice(WEIRD)}"
    return word


def start(seed: int, folder: Path) -> Session:
    if seed == 8:  # a cost column: goals on it, then deletes that misalign it
        from threshold_lab.core.data.sources import open_source

        copy = folder / "costs.csv"
        copy.write_bytes((DATA / "costs.csv").read_bytes())
        src = open_source(str(copy), keep=["amount"])
        return Session(src.data, 0.5, source=src.label, path=src.path, columns=src.columns)
    if seed == 9:  # an aggregated file's groups opened as groups, each row followed
        copy = folder / "slices.csv"
        copy.write_bytes((DATA / "slices.csv").read_bytes())
        from tests.argv import opened as open_argv

        return open_argv([str(copy)]).session
    if seed == 6:  # an aggregated file's groups, quantised
        from threshold_lab.core.data.sources import open_source

        # A copy in the test's folder: a save goes beside the file it was opened from.
        copy = folder / "slices.csv"
        copy.write_bytes((DATA / "slices.csv").read_bytes())
        src = open_source(str(copy), as_models=True)
        return Session(
            src.data,
            0.5,
            source=src.label,
            path=src.path,
            models=src.models,
            quantised=src.quantised,
            group_by=src.group_by,
        )
    if seed % 2:
        p = preset(PRESET_NAMES[seed % len(PRESET_NAMES)])
        return Session(
            p.data, p.threshold, source=f"preset {p.name}", models=p.models, multiclass=p.multiclass
        )
    rng = random.Random(seed)
    n = 30
    ids = [f"r{i}" for i in range(n - 3)] + ["a\nb", "c\x1bd", "e f"]
    data = make_dataset(
        [rng.choice([0.1, 0.5, 0.5, 0.9, rng.random()]) for _ in range(n)],
        [rng.random() < 0.4 for _ in range(n)],
        ids=ids,
    )
    return Session(data, 0.5, source="soak")


class Interrupting(io.StringIO):
    """Output that now and then raises KeyboardInterrupt as a line is written: Ctrl-C
    arriving mid-command (once per command, as a person presses it)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng
        self.armed = False

    def write(self, text: str) -> int:
        if self.armed and self.rng.random() < 0.3:
            self.armed = False
            raise KeyboardInterrupt
        return super().write(text)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 6, 8, 9, 11, 25])
def test_random_commands_never_raise_and_undo_returns_the_loaded_rows(
    tmp_path: Path, seed: int, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a preset's recovery file goes to the working folder
    run_seed = request.config.getoption("hypothesis_seed", default=None)
    rng = random.Random(f"{seed}:{run_seed}")
    session = start(seed, tmp_path)
    base = rows_of(session.data)
    out = Interrupting(rng)
    plain = PlainSession(session, out)
    for step in range(COMMANDS):
        line = command(rng, session, tmp_path)
        out.armed = rng.random() < 0.02
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
    out.armed = False
    # A hang-up now keeps the rows as they are (or writes nothing without edits).
    kept = session.recover()
    if kept is not None:
        assert kept.read_text(encoding="utf-8") == to_csv(session.data)
    for _ in range(COMMANDS + 1):
        if session.undo().message == "Nothing to undo.":
            break
    assert rows_of(session.data) == base
    assert rows_of(session.loaded[0]) == base
