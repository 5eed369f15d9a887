"""The one set of label rules, shared by every reader.

A label column holds 0/1 or true/false (any case; ``1.0``/``0.0`` too), 1
and true being the positive class, or -1/1 (``-1.0`` too), as scikit-learn
reads them: -1 negative, 1 positive (0 and -1 together are refused: two
numbers that would both be negative). Spellings of one class are one class:
``1``, ``1.0`` and ``TRUE`` may all appear in one column (see :func:`class_of`).
Two other names are allowed when ``--positive NAME`` says which one is
positive. Each label is stripped of surrounding spaces first. Anything else (an
empty label, a third class, a number other than 0/1, words mixed with 0/1) is a
:class:`LabelProblem`.

The exact readers turn a problem into a message naming file, place and
column; the pyarrow fast path takes one as "not clean" and hands the file to
the exact reader, so both readers accept the same labels with the same meaning.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from threshold_lab.core.errors import quoted

TRUE_WORDS = frozenset({"1", "1.0", "true"})
FALSE_WORDS = frozenset({"0", "0.0", "false"})
BOOL_WORDS = TRUE_WORDS | FALSE_WORDS
#: -1, negative beside 1 (scikit-learn's {-1, 1}); a class of its own, never 0's.
MINUS_WORDS = frozenset({"-1", "-1.0"})


def _binary(key: str) -> bool:
    """A spelling of 0, 1, true, false or -1."""
    return key.lower() in BOOL_WORDS or key in MINUS_WORDS


class LabelProblem(Exception):
    """Labels that break a rule.

    Attributes
    ----------
    text : str
        What is wrong, to follow ``"<place>, column <name>: "`` when ``at`` is
        set, else complete on its own.
    at : int or None
        Index, into the values that were checked, of the label at fault; None
        when no one label is (a ``--positive`` name that is not among them).
    """

    def __init__(self, text: str, at: int | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.at = at


def label_key(raw: object) -> str:
    """The text a raw label is judged by: stripped, and the same for ``1``, ``1.0`` and ``"1"``.

    >>> label_key(" spam "), label_key(1), label_key(1.0), label_key(0.5), label_key(True)
    ('spam', '1', '1', '0.5', 'true')
    >>> len(label_key(10**400))  # too large for a float: its digits
    401
    """
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, int):
        try:
            value = float(raw)
        except OverflowError:
            return str(raw)
        return repr(value).removesuffix(".0") if value.is_integer() else str(raw)
    if isinstance(raw, float):
        return repr(raw).removesuffix(".0") if raw.is_integer() else repr(raw)
    return str(raw).strip()


def class_of(key: str) -> str:
    """The class a label key names: ``"1"`` for every spelling of 1/true,
    ``"0"`` for every spelling of 0/false, else the key itself.

    >>> [class_of(k) for k in ("1.0", "TRUE", "true", "False", "0.0", "-1.0", "spam")]
    ['1', '1', '1', '0', '0', '-1', 'spam']
    """
    low = key.lower()
    if low in TRUE_WORDS:
        return "1"
    if low in FALSE_WORDS:
        return "0"
    if key in MINUS_WORDS:
        return "-1"
    return key


def _is_number_like(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _breaks_pattern(new: str, before: Sequence[str]) -> bool:
    """True when ``new`` cannot join ``before`` as 0/1 or true/false labels.

    Judged as each value first appears, so the message names the first label
    that gives the file away: a number other than 0/1, or a word after (or
    before) 0/1.
    """
    others = [_binary(b) for b in before]
    if not _binary(new):
        return _is_number_like(new) or any(others)
    return bool(others) and not all(others)


def _check_new(distinct: Sequence[str], at: int, positive: str | None) -> None:
    """Raise for ``distinct[at]``, a value just seen after ``distinct[:at]``."""
    new = distinct[at]
    if new == "":
        raise LabelProblem("the label is empty", at)
    other = {"0": "-1", "-1": "0"}.get(class_of(new))
    if positive is None and other and any(class_of(b) == other for b in distinct[:at]):
        was = next(b for b in distinct[:at] if class_of(b) == other)
        raise LabelProblem(
            f"label {quoted(new)} beside {quoted(was)}: labels are 0/1 or -1/1 (as "
            "scikit-learn reads them), and 0 and -1 cannot both be negative",
            at,
        )
    if positive is None and _breaks_pattern(new, distinct[:at]):
        raise LabelProblem(
            f"label {quoted(new)} is not 0/1 or true/false like the labels before it (1 is "
            "positive, 0 or -1 negative; for named classes use --positive NAME)",
            at,
        )
    if at >= 2:
        names = ", ".join(quoted(s) for s in distinct[: at + 1])
        raise LabelProblem(
            f"a third label value {quoted(new)} (values so far: {names}); "
            "a binary classifier needs exactly two classes",
            at,
        )


def truth_of(distinct: Sequence[str], positive: str | None) -> dict[str, bool]:
    """Which of the distinct labels is positive, by the label rules.

    Spellings of one class (:func:`class_of`) count as one label: the rules
    are judged on the first spelling of each class, and ``--positive`` names
    a class by any of its spellings.

    Parameters
    ----------
    distinct : sequence of str
        The distinct label keys (see :func:`label_key`) in the order they
        first appear; the order only decides which label a message names.
    positive : str or None
        The ``--positive`` name, or None for 0/1 and true/false labels.

    Returns
    -------
    dict
        Each key of ``distinct`` to True when it is the positive class.

    Raises
    ------
    LabelProblem
        With ``at`` an index into ``distinct``.

    >>> truth_of(["1", "0"], None), truth_of(["ham", "spam"], "spam")
    ({'1': True, '0': False}, {'ham': False, 'spam': True})
    >>> truth_of(["true", "1", "FALSE"], None)
    {'true': True, '1': True, 'FALSE': False}
    >>> truth_of(["cat", "dog"], None)
    Traceback (most recent call last):
    ...
    threshold_lab.core.data.labels.LabelProblem: label 'cat' is not 0/1 or true/false; ...
    """
    # One spelling per class, the first seen, and where in ``distinct`` it is.
    first: dict[str, int] = {}
    for at, key in enumerate(distinct):
        first.setdefault(class_of(key), at)
    spelled = [distinct[at] for at in first.values()]
    place = list(first.values())
    try:
        for at in range(len(spelled)):
            _check_new(spelled, at, positive)
        if positive is not None:
            wanted = class_of(positive)
            if wanted not in first and len(spelled) == 2:
                names = " and ".join(quoted(s) for s in spelled)
                raise LabelProblem(
                    f"--positive {quoted(positive)} is not one of the labels ({names})"
                )
            return {k: class_of(k) == wanted for k in distinct}
        unknown = [at for at, k in enumerate(spelled) if not _binary(k)]
        if unknown:
            names = " and ".join(quoted(s) for s in spelled)
            raise LabelProblem(
                f"label {quoted(spelled[unknown[0]])} is not 0/1 or true/false; the labels are "
                f"{names}: name the positive one with --positive NAME",
                unknown[0],
            )
    except LabelProblem as problem:
        # Placed by index into ``distinct``, not into the spellings judged.
        raise LabelProblem(
            problem.text, None if problem.at is None else place[problem.at]
        ) from None
    return {k: class_of(k) == "1" for k in distinct}


def first_missing(values: Sequence[object]) -> int | None:
    """The index of the first null (JSON null, a Parquet null), or None."""
    if isinstance(values, list):
        try:
            return values.index(None)  # compares identity first: C speed
        except ValueError:
            return None
    return next((i for i, v in enumerate(values) if v is None), None)


def read_labels(values: Sequence[object], positive: str | None) -> np.ndarray:
    """Booleans (True = positive) from raw labels, one per value, by the label rules.

    Raises
    ------
    LabelProblem
        With ``at`` the index in ``values`` of the first label at fault.

    >>> read_labels(["1", "0", " 1"], None).tolist()
    [True, False, True]
    >>> read_labels([1, 0, 2], None)
    Traceback (most recent call last):
    ...
    threshold_lab.core.data.labels.LabelProblem: label '2' is not 0/1 or true/false like the ...
    """
    missing = first_missing(values)
    if missing is not None:
        raise LabelProblem("the label is missing (null)", missing)
    keys = [label_key(v) for v in values]
    distinct = list(dict.fromkeys(keys))
    try:
        truth = truth_of(distinct, positive)
    except LabelProblem as problem:
        # Every rule is judged where a value first appears: that row is the place.
        at = None if problem.at is None else keys.index(distinct[problem.at])
        raise LabelProblem(problem.text, at) from None
    return np.fromiter((truth[k] for k in keys), dtype=bool, count=len(keys))
