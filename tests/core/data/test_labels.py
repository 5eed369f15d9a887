"""One set of label rules: what each rule says, and both CSV readers keeping them alike."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from threshold_lab.core.data import fast_csv
from threshold_lab.core.data.labels import LabelProblem, read_labels, truth_of
from threshold_lab.core.data.loaders import Columns, load_file
from threshold_lab.core.errors import InputError


@pytest.mark.parametrize(
    ("distinct", "positive", "truth"),
    [
        (["1", "0"], None, {"1": True, "0": False}),
        (["true", "FALSE"], None, {"true": True, "FALSE": False}),
        (["1.0", "0.0"], None, {"1.0": True, "0.0": False}),
        (["1", "true"], None, {"1": True, "true": True}),  # both positive: allowed
        # Spellings of one class are one class, not a third label value.
        (["1", "0", "true"], None, {"1": True, "0": False, "true": True}),
        (["True", "false", "TRUE"], None, {"True": True, "false": False, "TRUE": True}),
        (["1", "1.0", "0"], "0", {"1": False, "1.0": False, "0": True}),
        (["1", "0", "0.0"], "false", {"1": False, "0": True, "0.0": True}),
        (["0"], None, {"0": False}),
        (["ham", "spam"], "spam", {"ham": False, "spam": True}),
        (["1", "0"], "0", {"1": False, "0": True}),
        (["ham"], "spam", {"ham": False}),  # one class: nothing to contradict
    ],
)
def test_accepted_labels_and_their_meaning(
    distinct: list[str], positive: str | None, truth: dict[str, bool]
) -> None:
    assert truth_of(distinct, positive) == truth


@pytest.mark.parametrize(
    ("distinct", "positive", "at", "text"),
    [
        (["1", ""], None, 1, "the label is empty"),
        (["", "a", "b"], "a", 0, "the label is empty"),
        (["1", "2"], None, 1, "label '2' is not 0/1 or true/false like the labels before it"),
        (["cat", "1"], None, 1, "label '1' is not 0/1 or true/false like the labels before it"),
        (["1", "cat"], None, 1, "label 'cat' is not 0/1 or true/false like the labels before"),
        (["a", "b", "c"], "a", 2, "a third label value 'c' (values so far: 'a', 'b', 'c')"),
        (["1", "0", "true", "2"], None, 3, "label '2' is not 0/1 or true/false like the labels"),
        (["1", "TRUE", "a", "b"], "a", 3, "a third label value 'b' (values so far: '1', 'a', 'b')"),
        (["1", "true", "0"], "2", None, "--positive '2' is not one of the labels ('1' and '0')"),
        (["cat", "dog"], None, 0, "label 'cat' is not 0/1 or true/false; the labels are 'cat'"),
        (["cat", "dog"], "cow", None, "--positive 'cow' is not one of the labels ('cat' and"),
    ],
)
def test_rejected_labels_name_the_label_at_fault(
    distinct: list[str], positive: str | None, at: int | None, text: str
) -> None:
    with pytest.raises(LabelProblem) as info:
        truth_of(distinct, positive)
    assert info.value.at == at and info.value.text.startswith(text)


def test_a_problem_is_placed_at_the_first_row_of_the_label_at_fault() -> None:
    with pytest.raises(LabelProblem) as info:
        read_labels(["1", "0", "1", " 0", 2, "2"], None)
    assert info.value.at == 4 and info.value.text.startswith("label '2'")
    # Python values from JSON or Parquet key the same as their text.
    assert read_labels([True, False, " true "], None).tolist() == [True, False, True]
    assert read_labels([1, 0.0, "1", "0"], None).tolist() == [True, False, True, False]


LABELS = st.sampled_from(
    [
        *("0", "1", "true", "False", "TRUE", "FALSE", "True", "1.0", "0.0", " 1"),
        *("yes", "no", "2", "", " ", "1e0"),
    ]
)


def _exact(read, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """What the exact reader makes of a file: its labels or its message."""
    with monkeypatch.context() as m:
        m.setattr(fast_csv, "available", lambda: False)
        m.setattr(fast_csv, "from_table", lambda *args: None)
        try:
            return read().labels.tolist()
        except InputError as exc:
            return exc


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(LABELS, min_size=1, max_size=8),
    st.sampled_from([None, "yes", "1", "no"]),
)
def test_both_readers_accept_the_same_labels_with_the_same_meaning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, labels: list[str], positive: str | None
) -> None:
    # The fast path is called directly: through load_file, its "not clean"
    # would fall back to the exact reader and hide any difference.
    p = tmp_path / "d.csv"
    p.write_text("score,label\n" + "".join(f"{(i + 1) / 100},{v}\n" for i, v in enumerate(labels)))
    names = {"score": "score", "label": "label"}
    exact = _exact(lambda: load_file(p, Columns(positive=positive)), monkeypatch)
    fast = fast_csv.load_clean(str(p), ",", names, positive)
    if isinstance(exact, InputError):
        assert fast is None, f"the fast path accepted labels the exact reader rejects: {exact}"
    else:
        assert fast is not None and fast.labels.tolist() == exact

    q = tmp_path / "d.parquet"
    pq.write_table(pa.table({"score": [0.5] * len(labels), "label": labels}), q)
    exact = _exact(lambda: load_file(q, Columns(positive=positive)), monkeypatch)
    fast = fast_csv.from_table(pq.read_table(q), names, positive)
    if isinstance(exact, InputError):
        assert fast is None
    else:
        assert fast is not None and fast.labels.tolist() == exact
