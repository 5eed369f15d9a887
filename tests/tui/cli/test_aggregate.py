"""``threshold-lab aggregate``: every engine against a numpy reduction of the same rows.

DuckDB runs in-process; Spark runs in local mode on this machine's Java (these
tests fail, with the reason, when Java is missing: they are never skipped).
"""

from __future__ import annotations

import csv
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from threshold_lab.core.data.quantise import bin_of, round_scores
from threshold_lab.core.engines import spark as spark_engine
from threshold_lab.tui.cli import main

ENGINES = ("duckdb", "spark")
Row = tuple[str, float, float, float, bool]


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """One local Spark session for every test here (starting one costs seconds).

    PySpark's context sets its own Ctrl-C handler (cancel the jobs, then stop) and
    leaves it set when stopped: the handler the worker had comes back after, or a
    signal after the session (pytest-xdist's worker interrupts itself when its ending
    takes long) fails in that handler on the stopped context."""
    before = signal.getsignal(signal.SIGINT)
    session = spark_engine.session("local[2]")
    yield session
    session.stop()
    if before is not None:  # None: not set from Python, nothing to put back
        signal.signal(signal.SIGINT, before)


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    if request.param == "spark":
        request.getfixturevalue("spark")
    return str(request.param)


def run(args: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["aggregate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def dataset(seed: int, n: int = 400) -> dict[str, np.ndarray]:
    """Rows with many ties, -0.0 beside 0.0, integer weights (zeros too), three groups."""
    rng = np.random.default_rng(seed)
    scores = rng.integers(-4, 24, n) / 16.0
    scores[rng.random(n) < 0.05] = -0.0
    scores[rng.random(n) < 0.05] = 0.0
    continuous = rng.random(n) < 0.3
    scores[continuous] = rng.random(int(continuous.sum()))
    positive = rng.random(n) < 0.3 + 0.4 * (scores > 0.5)
    weights = rng.integers(0, 4, n).astype(float)
    weights[0] = 1.0
    groups = rng.choice(np.array(["a", "b", "c"]), n)
    return {"score": scores, "positive": positive, "weight": weights, "group": groups}


def oracle(
    d: dict[str, np.ndarray],
    *,
    weighted: bool = True,
    by: bool = True,
    rule: tuple[str, int] | None = None,
) -> list[Row]:
    """The reduction, row by row in Python, then the quantisation by the numpy rules."""
    table: dict[tuple[str, float], list[float]] = {}
    for s, y, w, g in zip(d["score"], d["positive"], d["weight"], d["group"], strict=True):
        key = (str(g) if by else "", float(s) + 0.0)
        cell = table.setdefault(key, [0.0, 0.0])
        cell[0 if y else 1] += float(w) if weighted else 1.0
    out: list[Row] = []
    for g in sorted({k[0] for k in table}):
        keys = sorted(s for gg, s in table if gg == g)
        s = np.array(keys)
        p = np.array([table[(g, k)][0] for k in keys])
        n = np.array([table[(g, k)][1] for k in keys])
        if rule is None:
            out += [
                (g, float(a), float(b), float(c), False) for a, b, c in zip(s, p, n, strict=True)
            ][::-1]
            continue
        if rule[0] == "round":
            q = round_scores(s, rule[1])
        else:
            below = np.concatenate(([0.0], np.cumsum(p + n)[:-1]))
            bins = bin_of(below, float((p + n).sum()), rule[1])
            q = np.array([s[bins == b].min() for b in bins])
        merged_rows = []
        for v in sorted(set(q.tolist()), reverse=True):
            at = q == v
            merged_rows.append((g, v, float(p[at].sum()), float(n[at].sum()), bool(at.sum() > 1)))
        out += merged_rows
    return out


def write_rows(
    path: Path,
    d: dict[str, np.ndarray],
    idx: np.ndarray,
    *,
    labels: str = "words",
    float32: bool = False,
) -> None:
    """Rows ``idx`` of ``d`` as CSV/TSV or Parquet (by the name), labels as words or 0/1."""
    lab = (
        np.where(d["positive"][idx], "spam", "ham")
        if labels == "words"
        else d["positive"][idx].astype(int)
    )
    if path.suffix == ".parquet":
        scores = d["score"][idx].astype(np.float32 if float32 else np.float64)
        pq.write_table(
            pa.table(
                {
                    "score": scores,
                    "label": lab,
                    "weight": d["weight"][idx],
                    "group": d["group"][idx],
                }
            ),
            path,
        )
        return
    delim = "\t" if path.suffix == ".tsv" else ","
    with path.open("w", newline="") as fh:
        w = csv.writer(fh, delimiter=delim)
        w.writerow(["score", "label", "weight", "group"])
        for i, k in enumerate(idx):
            w.writerow(
                [
                    repr(float(d["score"][k])),
                    f" {lab[i]} " if i % 7 == 0 else lab[i],
                    repr(float(d["weight"][k])),
                    d["group"][k],
                ]
            )


def read_out(path: Path, by: str | None = "group") -> list[Row]:
    if path.suffix == ".parquet":
        t = pq.read_table(path).to_pydict()
    else:
        with path.open(newline="") as fh:
            rows = list(csv.reader(fh, delimiter="\t" if path.suffix == ".tsv" else ","))
        t = {h: [r[i] for r in rows[1:]] for i, h in enumerate(rows[0])}
    n = len(t["score"])
    merged = t.get("merged", [False] * n)
    return [
        (
            str(t[by][i]) if by else "",
            float(t["score"][i]),
            float(t["positives"][i]),
            float(t["negatives"][i]),
            merged[i] in (True, "true"),
        )
        for i in range(n)
    ]


def spread(tmp: Path, d: dict[str, np.ndarray], parts: Sequence[str], seed: int) -> list[str]:
    """The rows of ``d`` split at random into files named ``parts``."""
    rng = np.random.default_rng(seed)
    which = rng.integers(0, len(parts), d["score"].shape[0])
    paths = []
    for i, name in enumerate(parts):
        p = tmp / name
        p.parent.mkdir(parents=True, exist_ok=True)
        write_rows(p, d, np.flatnonzero(which == i))
        paths.append(str(p))
    return paths


# --- exact reduction ---------------------------------------------------------------


@pytest.mark.parametrize("out_name", ["out.parquet", "out.csv"])
def test_every_engine_equals_the_numpy_reduction(
    tmp_path: Path, engine: str, out_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    d = dataset(1)
    files = spread(tmp_path, d, ["a.csv", "b.tsv", "c.parquet", "d/e.parquet"], seed=2)
    out = tmp_path / out_name
    code, said, err = run(
        [*files, "-o", str(out), "--engine", engine, "--positive", "spam", "--by", "group"], capsys
    )
    assert code == 0, err
    want = oracle(d)
    assert read_out(out) == want
    assert f"Wrote {out}: {len(want):,} distinct scores from 400 rows in 4 files ({engine})" in said
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())  # nothing left beside OUT


def test_counts_without_weights_and_without_groups(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    d = dataset(3)
    p = tmp_path / "rows.csv"
    with p.open("w") as fh:
        fh.write("score,label\n")
        for s, y in zip(d["score"], d["positive"], strict=True):
            fh.write(f"{float(s)!r},{'true' if y else 'FALSE'}\n")
    out = tmp_path / "agg.parquet"
    assert run([str(p), "-o", str(out), "--engine", engine], capsys)[0] == 0
    assert read_out(out, by=None) == oracle(d, weighted=False, by=False)
    table = pq.read_table(out)
    assert table.column_names == ["score", "positives", "negatives"]
    assert str(table.schema.field("positives").type) == "int64"
    scores = table.column("score").to_numpy()
    assert (np.diff(scores) < 0).all()  # one row per score, descending
    assert not np.signbit(scores[scores == 0]).any()  # -0.0 and 0.0 are one score, 0.0


def test_float32_scores_are_grouped_as_stored(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    d = dataset(4)
    d["score"] = np.random.default_rng(4).random(400).astype(np.float32).astype(np.float64)
    d["score"][:50] = d["score"][50:100]  # ties
    p = tmp_path / "f32.parquet"
    write_rows(p, d, np.arange(400), float32=True)
    out = tmp_path / "agg.parquet"
    assert (
        run(
            [str(p), "-o", str(out), "--engine", engine, "--positive", "spam", "--by", "group"],
            capsys,
        )[0]
        == 0
    )
    assert read_out(out) == oracle(d)


def test_hive_partitions_and_globs(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    d = dataset(5)
    lake = tmp_path / "lake"
    for g in ("a", "b", "c"):
        rows = np.flatnonzero(d["group"] == g)
        half = len(rows) // 2
        for day, idx in (("1", rows[:half]), ("2", rows[half:])):
            folder = lake / f"model={g}" / f"day={day}"
            folder.mkdir(parents=True)
            t = pa.table(
                {
                    "score": d["score"][idx],
                    "label": d["positive"][idx].astype(int),
                    "weight": d["weight"][idx],
                }
            )
            pq.write_table(t, folder / "part-0.parquet")
    (lake / "_SUCCESS").write_text("")
    out = tmp_path / "agg.csv"
    code, _, err = run([str(lake), "-o", str(out), "--engine", engine, "--by", "model"], capsys)
    assert code == 0, err
    assert read_out(out, by="model") == oracle(d)
    out2 = tmp_path / "agg2.csv"
    code, _, err = run(
        [
            str(lake / "model=*" / "day=1"),
            str(lake / "model=*" / "day=2"),
            "-o",
            str(out2),
            "--engine",
            engine,
            "--by",
            "model",
        ],
        capsys,
    )
    assert code == 0, err
    assert out2.read_text() == out.read_text()


# --- shards ------------------------------------------------------------------------


@pytest.mark.parametrize("ways", [1, 2, 5])
def test_shards_merge_to_the_whole(
    tmp_path: Path, engine: str, ways: int, capsys: pytest.CaptureFixture[str]
) -> None:
    d = dataset(6 + ways)
    whole = tmp_path / "whole.parquet"
    files = spread(tmp_path, d, [f"rows{i}.csv" for i in range(ways)], seed=ways)
    assert run([*files, "-o", str(whole), "--positive", "spam", "--by", "group"], capsys)[0] == 0
    shards = []
    for i, f in enumerate(files):
        shard = tmp_path / f"shard{i}.{'csv' if i % 2 else 'parquet'}"
        assert run([f, "-o", str(shard), "--positive", "spam", "--by", "group"], capsys)[0] == 0
        shards.append(str(shard))
    merged = tmp_path / "merged.parquet"
    code, said, err = run([*shards, "-o", str(merged), "--engine", engine, "--by", "group"], capsys)
    assert code == 0, err
    assert read_out(merged) == read_out(whole) == oracle(d)
    assert f"aggregated rows in {ways} file" in said


def test_rows_and_shards_together(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    d = dataset(12)
    a, b = spread(tmp_path, d, ["a.csv", "b.parquet"], seed=12)
    shard = tmp_path / "a_agg.csv"
    assert run([a, "-o", str(shard), "--positive", "spam", "--by", "group"], capsys)[0] == 0
    out = tmp_path / "out.parquet"
    code, _, err = run(
        [str(shard), b, "-o", str(out), "--engine", engine, "--positive", "spam", "--by", "group"],
        capsys,
    )
    assert code == 0, err
    assert read_out(out) == oracle(d)


# --- quantisation ------------------------------------------------------------------


@pytest.mark.parametrize("rule", [("round", 1), ("round", 0), ("quantile_bins", 4)])
def test_quantised_like_the_numpy_rules(
    tmp_path: Path, engine: str, rule: tuple[str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    d = dataset(20)
    d["score"] = np.round(d["score"] * 7.3, 3)
    files = spread(tmp_path, d, ["a.csv", "b.parquet"], seed=20)
    out = tmp_path / "q.csv"
    flag = ["--round", str(rule[1])] if rule[0] == "round" else ["--quantile-bins", str(rule[1])]
    code, said, err = run(
        [*files, "-o", str(out), "--engine", engine, "--positive", "spam", "--by", "group", *flag],
        capsys,
    )
    assert code == 0, err
    assert read_out(out) == oracle(d, rule=rule)
    with out.open() as fh:
        header = next(csv.reader(fh))
    assert header == ["score", "positives", "negatives", "group", "merged", "quantisation"]
    assert "AUC bound ±" in said


def test_rounded_shards_merge_and_round_exact_ones_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = dataset(21)
    a, b = spread(tmp_path, d, ["a.csv", "b.csv"], seed=21)
    qa = tmp_path / "qa.parquet"
    assert run([a, "-o", str(qa), "--positive", "spam", "--round", "1"], capsys)[0] == 0
    out = tmp_path / "out.csv"
    code, said, err = run([str(qa), b, "-o", str(out), "--positive", "spam"], capsys)
    assert code == 0, err
    assert "qa.parquet is rounded (round:1), so" in said
    want = {(s, p, n) for _, s, p, n, _ in oracle(d, by=False, rule=("round", 1))}
    assert {(s, p, n) for _, s, p, n, _ in read_out(out, by=None)} == want
    qb = tmp_path / "qb.csv"
    assert run([b, "-o", str(qb), "--positive", "spam", "--round", "2"], capsys)[0] == 0
    code, _, err = run([str(qa), str(qb), "-o", str(tmp_path / "x.csv")], capsys)
    assert code == 2 and "quantised as round:1 but" in err and "round:2" in err
    qbins = tmp_path / "qbins.csv"
    assert run([b, "-o", str(qbins), "--positive", "spam", "--quantile-bins", "3"], capsys)[0] == 0
    code, _, err = run([str(qbins), a, "-o", str(tmp_path / "y.csv"), "--positive", "spam"], capsys)
    assert code == 2 and "cannot be merged or quantised again exactly" in err
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "y.csv").exists()


# --- bad input ---------------------------------------------------------------------

BAD = [
    ("score,label\n0.5,1\n0.4,2\n", [], "'2' is not 0/1 or true/false"),
    ("score,label\n0.5,cat\n0.4,dog\n", [], "name the positive one with --positive NAME"),
    (
        "score,label\n0.5,cat\n0.4,dog\n0.3,eel\n",
        ["--positive", "cat"],
        "a third label value 'eel'",
    ),
    ("score,label\n0.5,cat\n0.4,dog\n", ["--positive", "emu"], "--positive 'emu' is not one of"),
    ("score,label\nnan,1\n0.4,0\n", [], "column 'score'"),
    ("score,label\ninf,1\n0.4,0\n", [], "column 'score'"),
    ("score,label\nabc,1\n0.4,0\n", [], "'abc'"),
    ("score,label\n0.5,\n0.4,0\n", [], "label"),
    ("score,label,weight\n0.5,1,-2\n0.4,0,1\n", [], "weight"),
    ("score,label\n", [], "no data rows"),
    ("scores,label\n0.5,1\n", [], "no column 'score' in the header"),
    ("score,positives,negatives\n0.5,1,-1\n", [], "negatives"),
    ("score,positives,negatives\n0.5,1,x\n", [], "'x'"),
    ("score,positives,negatives\nnan,1,1\n", [], "score"),
    ("score,positives,negatives,model\n0.5,1,1,a\n", [], "--by model"),
    ("score,label\n0.5,1,extra\n0.2,0\n", [], "line 2: 3 fields, but the header has 2"),
    (
        "score,positives,negatives,merged,quantisation\n0.9,3,1,,round:1\n",
        [],
        "column 'merged': '' is not true or false",
    ),
    ("score,label\n0.5,1\n0.2\n", [], "line 3: 1 fields, but the header has 2"),
]


@pytest.mark.parametrize(("text", "flags", "message"), BAD)
def test_bad_input_is_one_clear_line_and_no_output(
    tmp_path: Path,
    engine: str,
    text: str,
    flags: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bad = tmp_path / "in" / "bad.csv"
    bad.parent.mkdir()
    bad.write_text(text)
    out = tmp_path / "out.parquet"
    code, said, err = run([str(bad), "-o", str(out), "--engine", engine, *flags], capsys)
    assert code == 2 and said == ""
    assert err.startswith("threshold-lab: error: ") and err.count("\n") == 1, err
    assert message in err and "bad.csv" in err, err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_bad_parquet_cells_name_the_row(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"score": [0.5, 0.2, float("nan")], "label": [1, 0, 1]}), p)
    code, _, err = run([str(p), "-o", str(tmp_path / "o.csv"), "--engine", engine], capsys)
    assert code == 2 and "bad.parquet" in err and "column 'score'" in err and "nan" in err.lower()
    if engine == "duckdb":
        assert "row 3" in err
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.csv", "-o", "o.csv"], "missing.csv: no such file"),
        (["*.nothing", "-o", "o.csv"], "*.nothing: no file matches"),
        (["rows.csv", "-o", "o.json"], "name the output .parquet, .csv or .tsv"),
        (["rows.csv", "-o", "rows.csv"], "is the output too"),
        (["rows.csv", "-o", "o.csv", "--round", "16"], "must be 0 to 15"),
        (["rows.csv", "-o", "o.csv", "--quantile-bins", "0"], "must be 1 to"),
        (["rows.csv", "-o", "o.csv", "--memory-limit", "lots"], "a size such as 2GB"),
        (["rows.csv", "-o", "o.csv", "--by", "model"], "no column 'model' for --by"),
        (["rows.csv", "-o", "no/such/o.csv"], "no folder no/such"),
        (
            ["rows.csv", "-o", "o.csv", "--engine", "spark", "--memory-limit", "1GB"],
            "--memory-limit and --temp-directory are for --engine duckdb",
        ),
    ],
)
def test_command_line_mistakes(
    tmp_path: Path,
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rows.csv").write_text("score,label\n0.5,1\n0.2,0\n")
    code, _, err = run(args, capsys)
    assert code == 2 and message in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.csv"]


def test_memory_limit_and_temp_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = dataset(30)
    (f,) = spread(tmp_path, d, ["a.csv"], seed=30)
    spill = tmp_path / "spill"
    spill.mkdir()
    out = tmp_path / "o.parquet"
    code, _, err = run(
        [
            f,
            "-o",
            str(out),
            "--positive",
            "spam",
            "--memory-limit",
            "256MB",
            "--temp-directory",
            str(spill),
            "--by",
            "group",
        ],
        capsys,
    )
    assert code == 0, err
    assert read_out(out) == oracle(d)


def test_spark_without_java_says_so(tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    rows.write_text("score,label\n0.5,1\n0.2,0\n")
    env = {k: v for k, v in os.environ.items() if k not in ("JAVA_HOME", "SPARK_HOME")}
    env["PATH"] = str(Path(sys.executable).parent)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "threshold_lab",
            "aggregate",
            str(rows),
            "-o",
            str(tmp_path / "o.csv"),
            "--engine",
            "spark",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "the spark engine needs Java 17 or later" in proc.stderr
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.parametrize("label", ["0", "1", "spam"])
def test_one_class_only_is_counted_not_lost(
    tmp_path: Path, engine: str, label: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rows of one class: every row counts on its side (found by fuzzing: with no
    positive label, a SQL ``NOT IN`` of nothing counted no negatives either)."""
    p = tmp_path / "one.csv"
    p.write_text(f"score,label\n0.5,{label}\n0.25,{label}\n0.5,{label}\n")
    out = tmp_path / "o.csv"
    flags = ["--positive", "spam"] if label == "spam" else []
    code, _, err = run([str(p), "-o", str(out), "--engine", engine, *flags], capsys)
    assert code == 0, err
    positive = label in ("1", "spam")
    want = [("", 0.5, 2.0, 0.0, False), ("", 0.25, 1.0, 0.0, False)]
    if not positive:
        want = [(g, s, n, p, m) for g, s, p, n, m in want]
    assert read_out(out, by=None) == want


def test_inputs_that_weigh_nothing_are_refused(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "zero.csv"
    p.write_text("score,label,weight\n0.5,1,0\n0.25,0,0\n")
    code, _, err = run([str(p), "-o", str(tmp_path / "o.csv"), "--engine", engine], capsys)
    assert code == 2 and "zero.csv: every weight is zero: at least one row must count" in err


def test_spark_keeps_its_jvm_quiet(tmp_path: Path) -> None:
    """A run of its own (a new JVM): stdout says what was written and stderr is empty;
    a bad file is one line on stderr, Spark's log kept in a file it names when Spark
    itself fails."""
    rows = tmp_path / "rows.csv"
    rows.write_text("score,label\n0.5,1\n0.2,0\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "threshold_lab",
            "aggregate",
            str(rows),
            "-o",
            str(tmp_path / "o.csv"),
            "--engine",
            "spark",
            "--spark-master",
            "local[1]",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.startswith(f"Wrote {tmp_path / 'o.csv'}: 2 distinct scores")


def test_rounding_is_the_numpy_rule_bit_for_bit(spark: Any) -> None:
    """``floor(s · 10^D + 0.5) / 10^D`` in IEEE doubles in DuckDB, Spark and numpy alike,
    on random doubles and on halves (0.0005 at D = 3), the cases a decimal rounding
    would settle differently."""
    import duckdb
    from pyspark.sql import functions as F

    rng = np.random.default_rng(0)
    halves = rng.integers(0, 10**6, 5000) / 10**6 + 0.0005
    x = np.concatenate([rng.random(5000), rng.normal(0, 100, 5000), halves, -rng.random(2000)])
    con = duckdb.connect()
    frame = spark.createDataFrame([(float(v),) for v in x], ["s"])
    for d in (0, 1, 3, 6, 12):
        c = float(10**d)
        want = round_scores(x, d)
        con.register("t", pa.table({"s": x}))
        scale = f"CAST({c!r} AS DOUBLE)"
        q = f"SELECT floor(s * {scale} + CAST(0.5 AS DOUBLE)) / {scale} AS q FROM t"
        got = con.sql(q).fetchnumpy()["q"]
        assert (got + 0.0 == want).all(), d
        rows = frame.select(
            (F.floor(F.col("s") * F.lit(c) + F.lit(0.5)).cast("double") / F.lit(c)).alias("q")
        ).collect()
        assert (np.array([r["q"] for r in rows]) + 0.0 == want).all(), d


# --- what a walk-through found ------------------------------------------------------------


def test_out_is_never_where_a_later_run_would_read_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An OUT inside an input folder (or matched by an input glob) would be read back as
    a shard by the next run over that folder, counting its rows twice: refused. So is a
    folder holding rows and counts, and an existing OUT without --overwrite."""
    monkeypatch.chdir(tmp_path)
    lake = tmp_path / "lake"
    lake.mkdir()
    (lake / "a.csv").write_text("score,label\n0.5,1\n0.2,0\n")
    (lake / "readme.txt").write_text("not data\n")  # folders are searched for data files only
    code, _, err = run(["lake", "-o", "lake/out.parquet"], capsys)
    assert code == 2 and "a later run over lake would read it as a shard" in err
    code, _, err = run(["lake/*.csv", "-o", "lake/x.csv"], capsys)
    assert code == 2 and "a later run over lake/*.csv" in err
    assert run(["lake", "-o", "out.parquet"], capsys)[0] == 0
    code, _, err = run(["lake", "-o", "out.parquet"], capsys)
    assert code == 2 and "out.parquet: already exists; give --overwrite to replace it" in err
    assert run(["lake", "-o", "out.parquet", "--overwrite"], capsys)[0] == 0
    code, _, err = run(["lake", "-o", "lake"], capsys)
    assert code == 2 and "name the output .parquet, .csv or .tsv" in err
    (lake / "old.csv").write_text("score,positives,negatives\n0.5,1,0\n0.2,0,1\n")
    code, _, err = run(["lake", "-o", "o2.csv"], capsys)
    assert code == 2 and "lake holds rows (lake/a.csv) and aggregated counts (lake/old.csv)" in err
    assert run(["lake/a.csv", "lake/old.csv", "-o", "o2.csv"], capsys)[0] == 0  # named: meant


@pytest.mark.parametrize("form", ["folder", "glob"])
def test_a_partition_key_in_the_path_given_is_still_a_key(
    tmp_path: Path, form: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for day in ("1", "2"):
        folder = tmp_path / "lake" / "model=a" / f"day={day}"
        folder.mkdir(parents=True)
        pq.write_table(pa.table({"score": [0.5, 0.25], "label": [1, 0]}), folder / "p.parquet")
    given = "lake/model=a" if form == "folder" else "lake/model=a/*/*.parquet"
    code, said, err = run([given, "-o", "o.csv", "--by", "model"], capsys)
    assert code == 0, err
    assert "  a: 2 scores, 2 positives, 2 negatives" in said


def test_label_problems_name_the_parquet_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "lab.parquet"
    pq.write_table(pa.table({"score": [0.5, 0.4, 0.3], "label": ["1", "0", "2"]}), p)
    code, _, err = run([str(p), "-o", str(tmp_path / "o.csv")], capsys)
    assert code == 2 and "lab.parquet, row 3, column 'label': label '2' is not 0/1" in err


def test_out_of_memory_says_how_to_give_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = dataset(40, n=20000)
    (f,) = spread(tmp_path, d, ["a.csv"], seed=40)
    code, _, err = run(
        [f, "-o", str(tmp_path / "o.csv"), "--positive", "spam", "--memory-limit", "1MB"], capsys
    )
    assert code == 2 and "raise it with --memory-limit" in err and "Possible" not in err


def test_an_interrupt_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from threshold_lab.core.engines import duck

    def stopped(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(duck, "run", stopped)
    rows = tmp_path / "rows.csv"
    rows.write_text("score,label\n0.5,1\n0.2,0\n")
    code, said, err = run([str(rows), "-o", str(tmp_path / "o.csv")], capsys)
    assert code == 130 and said == ""
    assert err == f"threshold-lab: interrupted; {tmp_path / 'o.csv'} was not written\n"


def test_a_grouped_shard_is_not_refused_for_its_groups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An engine's error on a small grouped shard reads the shard again for its line
    message as counts with their groups, not as a file the loader would refuse for
    holding several groups."""
    shard = tmp_path / "g.csv"
    shard.write_text("score,positives,negatives,model\n0.5,1,1,a\n0.4,1,1,b\n")
    code, _, err = run(
        [str(shard), "-o", str(tmp_path / "o.csv"), "--by", "model", "--memory-limit", "1MB"],
        capsys,
    )
    assert code == 2 and "raise it with --memory-limit" in err and "groups" not in err


# --- publishing OUT, places that cannot take it, totals past the largest float ------------


def _someone_else_writes(monkeypatch: pytest.MonkeyPatch, module: Any, out: Path) -> None:
    """Make ``module.run`` (an engine) create OUT as another program would, after the
    command's start checks and before the engine publishes its result."""
    real = module.run

    def run(*args: Any, **kwargs: Any) -> Any:
        out.write_text("someone else's\n")
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "run", run)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_an_out_that_appears_during_the_run_is_left_as_it_is(
    tmp_path: Path,
    engine: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """OUT was checked only at the start and the result moved in with os.replace, so a
    file written to OUT during the run was replaced, and the run said "Wrote"."""
    from threshold_lab.core.engines import duck

    rows = tmp_path / "rows.csv"
    rows.write_text("score,label\n0.5,1\n0.2,0\n")
    out = tmp_path / "o.csv"
    _someone_else_writes(monkeypatch, spark_engine if engine == "spark" else duck, out)
    code, said, err = run([str(rows), "-o", str(out), "--engine", engine], capsys)
    assert (code, said) == (2, "")
    assert err == (
        f"threshold-lab: error: -o {out}: appeared during the run and was left as "
        "it is; give --overwrite to replace it\n"
    )
    assert out.read_text() == "someone else's\n"
    assert _leftovers(tmp_path) == []  # the finished temporary file is removed


def test_overwrite_replaces_a_file_that_appears_during_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from threshold_lab.core.engines import duck

    rows = tmp_path / "rows.csv"
    rows.write_text("score,label\n0.5,1\n0.2,0\n")
    out = tmp_path / "o.csv"
    _someone_else_writes(monkeypatch, duck, out)
    code, said, err = run([str(rows), "-o", str(out), "--overwrite"], capsys)
    assert code == 0, err
    assert said.startswith(f"Wrote {out}: 2 distinct scores")
    assert out.read_text() == "score,positives,negatives\n0.5,1,0\n0.2,0,1\n"
    assert _leftovers(tmp_path) == []


#: A run of the command whose engine waits, once past the command's start checks, until
#: every run of the test has got that far: runs that race to one OUT, every time.
GATED = """
import os, sys, time
from pathlib import Path
from threshold_lab.core.engines import duck
from threshold_lab.tui.cli import main

gate, runs = Path(sys.argv[1]), int(sys.argv[2])
real = duck.run

def run(*args, **kwargs):
    (gate / str(os.getpid())).touch()
    deadline = time.monotonic() + 120
    while len(list(gate.iterdir())) < runs and time.monotonic() < deadline:
        time.sleep(0.01)
    return real(*args, **kwargs)

duck.run = run
raise SystemExit(main(["aggregate", *sys.argv[3:]]))
"""


def test_concurrent_runs_to_one_out_write_it_once(tmp_path: Path) -> None:
    """Three runs to one absent OUT all said "Wrote", each replacing the one before:
    exactly one writes it, whole, and the others refuse, leaving it as it is."""
    d = dataset(50, n=3000)
    (rows,) = spread(tmp_path, d, ["rows.csv"], seed=50)
    gate = tmp_path / "gate"
    gate.mkdir()
    out = tmp_path / "o.parquet"
    args = [rows, "-o", str(out), "--positive", "spam", "--by", "group"]
    command = [sys.executable, "-c", GATED, str(gate), "3", *args]
    pipes: dict[str, Any] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True}
    procs = [subprocess.Popen(command, **pipes) for _ in range(3)]
    done = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    wrote = [said for code, said, _ in done if code == 0]
    refused = [err for code, _, err in done if code != 0]
    assert len(wrote) == 1 and wrote[0].startswith(f"Wrote {out}: "), done
    assert [code for code, _, _ in done].count(2) == 2, done
    assert (
        refused
        == [
            f"threshold-lab: error: -o {out}: appeared during the run and was left "
            "as it is; give --overwrite to replace it\n"
        ]
        * 2
    )
    assert read_out(out) == oracle(d)  # intact and complete
    assert _leftovers(tmp_path) == []


def _unwritable_folder(tmp_path: Path, place: str) -> tuple[Path, str]:
    """A folder this process cannot make files in, and why the OS says it cannot: a
    folder of mode 0o555, except for root, whom permission bits do not stop (then
    /sys, which refuses root too); or /proc, which makes no new entries at all."""
    if place == "/proc":
        return Path("/proc"), "it takes no new files"
    if os.geteuid() == 0:
        return Path("/sys"), "Operation not permitted"
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    return folder, "Permission denied"


@pytest.mark.parametrize("engine_name", ENGINES)
@pytest.mark.parametrize("place", ["read-only", "/proc"])
def test_an_unwritable_folder_is_one_line_and_status_1(
    tmp_path: Path, place: str, engine_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tempfile.mkdtemp traceback (DuckDB) or a line blaming the input (Spark), after
    all the work: now one line naming the folder, before any, exit status 1."""
    rows = tmp_path / "rows.csv"
    rows.write_text("score,label\n0.5,1\n0.2,0\n")
    folder, why = _unwritable_folder(tmp_path, place)
    out = folder / "o.csv"
    code, said, err = run([str(rows), "-o", str(out), "--engine", engine_name], capsys)
    if folder.is_relative_to(tmp_path):
        assert list(folder.iterdir()) == []
        folder.chmod(0o755)
    assert (code, said) == (1, "")
    assert err == (
        f"threshold-lab: error: -o {out}: cannot write it: folder {folder} is not "
        f"writable ({why})\n"
    )


def test_a_folder_that_stops_taking_files_is_the_same_line(
    tmp_path: Path,
    engine: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the check at the start (the folder changed during the run), each engine
    says the same one line when it comes to write OUT."""
    from threshold_lab.core import output

    def unchecked(path: Path, flag: str, **_: object) -> output.Output:
        return output.Output(Path(path), flag, Path(path), through=False, overwrite=True)

    monkeypatch.setattr(output, "output", unchecked)
    rows = tmp_path / "rows.csv"
    rows.write_text("score,label\n0.5,1\n0.2,0\n")
    code, said, err = run([str(rows), "-o", "/proc/o.csv", "--engine", engine], capsys)
    assert (code, said) == (1, "")
    assert err == (
        "threshold-lab: error: -o /proc/o.csv: cannot write it: folder /proc is not "
        "writable (it takes no new files)\n"
    )


def _heavy(path: Path) -> None:
    """Three weights of 1e308: each a double, their total not."""
    rows = {"score": [0.5, 0.4, 0.3, 0.2], "label": [1, 1, 1, 0], "weight": [1e308] * 3 + [1.0]}
    if path.suffix == ".parquet":
        pq.write_table(pa.table(rows), path)
        return
    lines = [",".join(map(str, r)) for r in zip(*rows.values(), strict=True)]
    path.write_text("score,label,weight\n" + "\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("engine", "name"),
    [("duckdb", "heavy.parquet"), ("spark", "heavy.parquet"), ("duckdb", "heavy.csv")],
    indirect=["engine"],
)
def test_weights_past_the_largest_float_are_refused(
    tmp_path: Path, engine: str, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """DuckDB wrote "inf positives" (a file every loader refuses), exit 0; Spark wrote
    a JSON log record, then its overflow. Now the loaders' words, in one line: on a
    small CSV the loader's own message, naming the line (as Spark gave it already)."""
    src = tmp_path / name
    _heavy(src)
    out = tmp_path / "o.csv"
    code, said, err = run([str(src), "-o", str(out), "--engine", engine], capsys)
    assert (code, said) == (2, "")
    if name.endswith(".csv"):
        assert err == (
            f"threshold-lab: error: {src}: line 3, column 'weight': weight takes the "
            "total weight past the largest float (about 1.8e308): scale the weights "
            "down\n"
        )
    else:
        assert err == (
            f"threshold-lab: error: {src}, column 'weight': the weights take the "
            "total weight past the largest float (about 1.8e308): scale the weights "
            "down\n"
        )
    assert not out.exists() and _leftovers(tmp_path) == []


def test_a_group_past_the_largest_float_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "g.parquet"
    pq.write_table(
        pa.table(
            {
                "score": [0.5, 0.4, 0.5, 0.4],
                "label": [1, 0, 1, 0],
                "weight": [1e308, 1e308, 1.0, 1.0],
                "model": ["a", "a", "b", "b"],
            }
        ),
        src,
    )
    code, _, err = run([str(src), "-o", str(tmp_path / "o.csv"), "--by", "model"], capsys)
    assert code == 2
    assert err == (
        f"threshold-lab: error: {src}, column 'weight': the weights of group 'a' "
        "take the total weight past the largest float (about 1.8e308): scale the "
        "weights down\n"
    )


def test_a_nan_weight_is_named_with_its_row(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """DuckDB said "every weight is zero" for weights [nan, 1]: its Parquet reader
    skipped the row group by statistics that leave NaN out. Named now, in the loader's
    words (Spark keeps no row numbers)."""
    src = tmp_path / "nan.parquet"
    pq.write_table(
        pa.table({"score": [0.5, 0.4], "label": [1, 0], "weight": [float("nan"), 1.0]}), src
    )
    code, _, err = run([str(src), "-o", str(tmp_path / "o.csv"), "--engine", engine], capsys)
    assert code == 2
    where, value = (f"{src}, row 1", "'nan'") if engine == "duckdb" else (f"{src}", "'NaN'")
    assert (
        err == f"threshold-lab: error: {where}, column 'weight': {value} is not a finite number\n"
    )


def test_spark_logs_no_json_record_of_an_error(
    spark: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """PySpark logs each error that has a query context as a JSON record on stderr,
    through loggers with handlers of their own: a second line above the error's one.
    The session silences them."""
    from pyspark.logger import PySparkLogger
    from pyspark.sql import functions as F

    with pytest.raises(Exception, match="ARITHMETIC_OVERFLOW"):
        spark.range(1).select(F.floor(F.lit(float("inf")))).collect()
    assert capsys.readouterr().err == ""
    for name in spark_engine.CONTEXT_LOGGERS:
        assert not PySparkLogger.getLogger(name).isEnabledFor(logging.ERROR)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A folder on a 64 KiB tmpfs, to fill up: needs root and a mount that works."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a full disk needs a small tmpfs, which only root can mount")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True)  # still busy


def test_a_full_disk_is_one_line_and_status_1(
    tmp_path: Path, engine: str, small_disk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DuckDB blamed the input ("many.parquet: IO Error: Async write failed ..."),
    Spark said "An error occurred while calling o331.csv.": now both say the disk is
    full, in one line, exit status 1, and leave nothing on it."""
    rng = np.random.default_rng(60)
    src = tmp_path / "many.parquet"
    pq.write_table(pa.table({"score": rng.random(20000), "label": rng.integers(0, 2, 20000)}), src)
    out = small_disk / "o.csv"  # some 500 KB of distinct scores
    code, said, err = run([str(src), "-o", str(out), "--engine", engine], capsys)
    assert (code, said) == (1, "")
    assert err == f"threshold-lab: error: cannot write {out}: no space left on device\n"
    assert list(small_disk.iterdir()) == []
