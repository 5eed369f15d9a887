"""A soak of the hostile families: random values of every dtype the API is handed,
random requirement texts (deep, long, odd characters), mutated baselines, and
outputs at devices, links, folders and inputs. Every call either answers or raises
one InputError of one short line: never another exception, never a message of
thousands of characters, never a changed input file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from threshold_lab.core.errors import InputError
from threshold_lab.tui.cli import main

import threshold_lab as tl

Y, S = [1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1]
SOAK = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _answers_or_refuses(call: Any) -> None:
    try:
        call()
    except InputError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) < 600, message[:200]


scalars = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**80), 2**80),
    st.complex_numbers(max_magnitude=10),
    st.text(max_size=12),
    st.sampled_from(["1e-400", "1_0", "\u0663", "inf", " 0.5 ", "", "0x10", "9" * 5000]),
    st.none(),
    st.booleans(),
)


@st.composite
def arrays(draw: st.DrawFn) -> Any:
    kind = draw(
        st.sampled_from(
            [
                "list",
                "object",
                "int64",
                "uint64",
                "complex",
                "date",
                "masked",
                "longdouble",
                "ragged",
                "set",
                "iterator",
            ]
        )
    )
    values = draw(st.lists(scalars, min_size=5, max_size=5))
    if kind == "list":
        return values
    if kind == "object":
        return np.asarray(values, dtype=object)
    if kind in ("int64", "uint64"):
        top = 2**63 - 1 if kind == "int64" else 2**64 - 1
        ints = draw(st.lists(st.integers(0, top), min_size=5, max_size=5))
        return np.asarray(ints, dtype=kind)
    if kind == "complex":
        return np.asarray([0.9, 0.8, 0.8, 0.4, 0.1]) + 1j * draw(st.floats(0, 1))
    if kind == "date":
        return np.arange(5).astype("datetime64[D]")
    if kind == "masked":
        mask = draw(st.lists(st.booleans(), min_size=5, max_size=5))
        return np.ma.masked_array(np.asarray(S), mask=np.asarray(mask))
    if kind == "longdouble":
        return np.asarray(S, dtype=np.longdouble) + np.longdouble(2) ** -draw(st.integers(1, 80))
    if kind == "ragged":
        return [[0.1], [0.2, 0.3], 0.4, 0.5, 0.6]
    if kind == "set":
        return {0.1, 0.2, 0.3, 0.4, 0.5}
    return iter(S)


@SOAK
@given(scores=arrays(), labels=st.one_of(arrays(), st.just(Y)))
def test_any_array_answers_or_is_one_input_error(scores: Any, labels: Any) -> None:
    _answers_or_refuses(lambda: tl.report(labels, scores).to_json())


requirement = st.one_of(
    st.text(alphabet="()-+*/ .0123456789eauc><=!bselinpr_", max_size=120),
    st.builds(
        lambda depth, sign, digits: (
            "(" * depth + sign * depth + "auc" + ")" * depth + " >= " + "9" * digits
        ),
        st.integers(0, 600),
        st.sampled_from(["", "-"]),
        st.integers(1, 6000),
    ),
    st.builds(lambda n: "auc >= " + "+".join(["0.001"] * n), st.integers(1, 400)),
)


@SOAK
@given(expr=requirement)
def test_any_requirement_answers_or_is_one_input_error(expr: str) -> None:
    _answers_or_refuses(lambda: tl.report(Y, S, require=expr))


def _mutations() -> st.SearchStrategy[Any]:
    leaf = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(),
        st.text(max_size=8),
        st.sampled_from(["7/3", "1/" + "7" * 5000, "0x10", "-1/2"]),
    )
    return st.recursive(
        leaf,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(["value", "exact", "reason", "auc", "tpr", "kind", "limit"]),
                inner,
                max_size=3,
            )
        ),
        max_leaves=8,
    )


BASE: dict[str, Any] = json.loads(tl.report(Y, S, readout="fpr 0.1").to_json())
FIELDS = ["roc", "pr", "probability", "ks", "metrics", "readouts", "goal", "schema"]


@SOAK
@given(field=st.sampled_from(FIELDS), value=_mutations(), deep=st.integers(0, 3000))
def test_any_baseline_answers_or_is_one_input_error(field: str, value: Any, deep: int) -> None:
    d = json.loads(json.dumps(BASE))
    d[field] = value
    text = json.dumps(d)
    if deep:
        text = text[:-1] + ', "x": ' + "[" * deep + "]" * deep + "}"
    _answers_or_refuses(lambda: tl.report(Y, S, baseline=text, require="auc >= 0"))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    where=st.sampled_from(
        ["rows", "link", "base", "folder", "null", "full", "proc", "missing", "new", "empty"]
    )
)
def test_any_output_is_written_or_refused_and_no_input_changes(
    tmp_path_factory: pytest.TempPathFactory, where: str
) -> None:
    tmp = tmp_path_factory.mktemp("out")
    rows = tmp / "rows.csv"
    rows.write_text("score,label\n0.9,1\n0.8,0\n0.4,1\n0.1,0\n")
    base = tmp / "base.json"
    base.write_text(tl.report([1, 0, 1, 0], [0.9, 0.8, 0.4, 0.1]).to_json())
    (tmp / "link.xml").symlink_to(rows)
    target = {
        "rows": str(rows),
        "link": str(tmp / "link.xml"),
        "base": str(base),
        "folder": str(tmp),
        "null": os.devnull,
        "full": "/dev/full",
        "proc": "/proc/x.xml",
        "missing": str(tmp / "no" / "x.xml"),
        "new": str(tmp / "new.xml"),
        "empty": "",
    }[where]
    before = {p: p.read_bytes() for p in (rows, base)}
    argv = ["report", str(rows), "--baseline", str(base), "--require", "auc >= 0"]
    code = main([*argv, "--junit", target, "--points", "0"])
    assert code in (0, 1, 2)
    assert {p: p.read_bytes() for p in before} == before
    assert sorted(p.name for p in tmp.iterdir() if p.name.startswith(".")) == []
    if where == "new":
        assert code == 0 and Path(target).read_text().startswith("<?xml")


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_mutated_files_answer_or_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    rng = np.random.default_rng(seed)
    good = b"id,score,label\n" + b"".join(
        b"r%d,%r,%d\n" % (i, float(rng.random()), int(rng.random() < 0.4)) for i in range(40)
    )
    for _ in range(40):
        data = bytearray(good)
        for _ in range(int(rng.integers(1, 6))):
            at = int(rng.integers(0, len(data)))
            choice = int(rng.integers(0, 4))
            if choice == 0:
                data[at] = int(rng.integers(0, 256))
            elif choice == 1:
                data[at:at] = b"9" * int(rng.integers(1, 400))
            elif choice == 2:
                del data[at : at + int(rng.integers(1, 20))]
            else:
                data[at:at] = b"18446744073709551617"
        path = tmp_path / "m.csv"
        path.write_bytes(bytes(data))
        code = main(["report", str(path), "--json", "--points", "0"])
        _, err = capsys.readouterr()
        assert code in (0, 2), err
        if code == 2:
            assert err.count("\n") == 1 and len(err) < 600 and "Traceback" not in err


@SOAK
@given(
    kind=st.one_of(st.sampled_from(["sweep", "metrics", "groups", "folds", "readouts"]), scalars),
    exact=st.one_of(st.booleans(), scalars),
    metric=st.one_of(st.sampled_from(["f1", "precision", "mcc", "F1", " recall "]), scalars),
    chart=st.one_of(st.sampled_from(["roc", "pr", "decision"]), scalars),
    baseline=st.one_of(
        st.none(), st.text(max_size=20), st.dictionaries(st.text(max_size=5), scalars, max_size=3)
    ),
    require=st.one_of(st.none(), st.text(max_size=40), st.lists(st.text(max_size=20), max_size=3)),
)
def test_the_library_s_newer_doors_answer_or_refuse_in_one_line(
    kind: Any, exact: Any, metric: Any, chart: Any, baseline: Any, require: Any
) -> None:
    """to_frame, to_arrow, metric_at_thresholds, gate, plot(ax=) and classifier given
    anything: an answer or one InputError of one short line."""
    r = tl.report(Y, S)
    _answers_or_refuses(lambda: r.to_frame(kind, exact=exact))
    _answers_or_refuses(lambda: r.to_arrow(kind, exact=exact))
    _answers_or_refuses(lambda: r.metric_at_thresholds(metric))
    _answers_or_refuses(lambda: tl.metric_at_thresholds(Y, S, metric))
    _answers_or_refuses(lambda: tl.gate(r, baseline, require))
    _answers_or_refuses(lambda: r.classifier(None, response_method=metric))
    from matplotlib.figure import Figure

    _answers_or_refuses(lambda: r.plot(chart, ax=Figure().add_subplot()))


@SOAK
@given(
    rows=st.lists(
        st.tuples(st.floats(-5, 5), st.booleans(), st.floats(0.01, 3)), min_size=1, max_size=30
    ),
    weighted=st.booleans(),
    kind=st.one_of(st.sampled_from(["roc", "pr", "det", "ROC "]), scalars),
    width=st.one_of(st.integers(-3, 1200), scalars),
    seconds=st.one_of(st.floats(0.0, 3.0), scalars),
    reference=st.booleans(),
)
def test_braille_and_sound_answer_or_refuse_in_one_line(
    rows: Any,
    weighted: bool,
    kind: Any,
    width: Any,
    seconds: Any,
    reference: bool,
    tmp_path_factory: Any,
) -> None:
    """Any rows (ties, weights that are not whole, one class) and any kind, width and
    seconds: a line of braille cells, a WAV file, or one short InputError."""
    r = tl.report(
        [y for _, y, _ in rows],
        [s for s, _, _ in rows],
        sample_weight=[w for _, _, w in rows] if weighted else None,
    )

    def braille() -> None:
        line = r.braille(kind, width=width)
        assert len(line.cells) == line.width and all("\u2800" <= c <= "\u28ff" for c in line.cells)

    _answers_or_refuses(braille)
    path = tmp_path_factory.mktemp("sound") / "x.wav"
    _answers_or_refuses(lambda: r.sonify(kind, path, seconds=seconds, reference=reference))


@SOAK
@given(
    smooth=st.one_of(st.sampled_from(["binormal", "density", "normal", "binormal,x"]), scalars),
    bandwidth=scalars,
    ci=st.one_of(scalars, st.lists(scalars, max_size=3)),
    at=scalars,
    power_args=st.dictionaries(
        st.sampled_from(
            [
                "auc",
                "cases",
                "controls",
                "kappa",
                "power",
                "a1",
                "b1",
                "a2",
                "b2",
                "rn",
                "ra",
                "delta",
                "a",
                "b",
                "partial_auc",
                "power_method",
            ]
        ),
        scalars,
        max_size=6,
    ),
)
def test_pROC_s_doors_answer_or_refuse_in_one_line(
    smooth: Any, bandwidth: Any, ci: Any, at: Any, power_args: Any
) -> None:
    """Smoothing, intervals at coordinates, the rate tests and power given anything: an
    answer or one InputError of one short line."""
    density = {"smooth": "density", "bandwidth": bandwidth}
    _answers_or_refuses(lambda: tl.report(Y, S, smooth=smooth).to_dict())
    _answers_or_refuses(lambda: tl.report(Y, S, **density).to_dict())
    _answers_or_refuses(lambda: tl.report(Y, S, bootstrap=100, ci_se=ci, ci_thresholds=ci))
    both = {"a": S, "b": [0.5, 0.2, 0.9, 0.1, 0.3]}
    _answers_or_refuses(
        lambda: tl.report(Y, both, test="sensitivity", at_specificity=at, bootstrap=100)
    )
    _answers_or_refuses(lambda: tl.power(**power_args))
    _answers_or_refuses(lambda: tl.report(Y, S).smoothed(smooth, bandwidth=bandwidth))
