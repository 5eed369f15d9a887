"""A fitted classifier's scores and its own decision rule, for
``Report.from_estimator``: which response it thresholds (``predict_proba`` or
``decision_function``), at what threshold, and which class is positive, so that the
report's counts are the estimator's ``predict``.

threshold-lab's rule is ``score >= threshold``. scikit-learn's threshold classifiers
(``FixedThresholdClassifier``, ``TunedThresholdClassifierCV``) use the same rule, so
their threshold is taken as it is. A plain classifier's ``predict`` is strict for its
second class: ``decision_function(X) > 0``, or the larger probability with a tie going
to the first class (``predict_proba(X)[:, 1] > 0.5``). Where a score lies exactly on
such a strict threshold, the report's threshold is the next double above it, so that
the row is negative as ``predict`` says; with no score on it, the threshold is shown
as it is (the counts are the same).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.errors import InputError, quoted

PROBA = "predict_proba"
MARGIN = "decision_function"


@dataclass(frozen=True)
class EstimatorRule:
    """What ``from_estimator`` reports: the scores (one column, or one a class with
    three or more classes), the estimator's classes, the response method used, the
    class scored as positive (None with several classes and no ``positive=``) and the
    estimator's threshold on those scores (None with several classes)."""

    scores: npt.NDArray[np.float64]
    classes: list[Any]
    method: str
    positive: Any
    threshold: float | None

    @property
    def several(self) -> bool:
        return self.scores.ndim == 2

    def describe(self, name: str) -> str:
        """The report's source: the estimator's class and its response method."""
        return f"{name} {self.method}"


def _check_fitted(estimator: Any, name: str) -> None:
    if hasattr(estimator, "__sklearn_is_fitted__") or hasattr(estimator, "fit"):
        try:
            from sklearn.utils.validation import check_is_fitted
        except ImportError:
            return
        try:
            check_is_fitted(estimator)
        except (TypeError, ValueError, AttributeError):
            raise InputError(f"{name} is not fitted: fit it before from_estimator") from None


def _call(estimator: Any, name: str, method: str, X: Any) -> npt.NDArray[np.float64] | None:
    """``estimator.method(X)`` as doubles; None when it has no such method."""
    fn = getattr(estimator, method, None)
    if not callable(fn):
        return None
    try:
        out = fn(X)
    except AttributeError:  # an SVC fitted without probability=True, say
        return None
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name}.{method}(X) refused X: {exc}") from None
    try:
        return np.asarray(out, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{name}.{method}(X) gave values that are not numbers") from None


def _response(
    estimator: Any, name: str, methods: list[str], X: Any
) -> tuple[npt.NDArray[np.float64], str]:
    for method in methods:
        scores = _call(estimator, name, method, X)
        if scores is not None:
            return scores, method
    if methods == [PROBA, MARGIN]:
        raise InputError(
            f"{name} has neither predict_proba nor decision_function: give its scores to report()"
        )
    raise InputError(f"{name} has no {' or '.join(methods)}: give its scores to report()")


def _index(classes: list[Any], positive: Any) -> int | None:
    """Where ``positive`` is among ``classes`` (as given, or as its text)."""
    for i, c in enumerate(classes):
        if c == positive:
            return i
    for i, c in enumerate(classes):
        if str(c) == str(positive):
            return i
    return None


def _threshold_classifier(estimator: Any) -> bool:
    """A scikit-learn ``FixedThresholdClassifier`` or ``TunedThresholdClassifierCV``."""
    try:
        from sklearn.model_selection import (
            FixedThresholdClassifier,
            TunedThresholdClassifierCV,
        )
    except ImportError:
        return False
    return isinstance(estimator, FixedThresholdClassifier | TunedThresholdClassifierCV)


def _binary(
    scores: npt.NDArray[np.float64], classes: list[Any], method: str, name: str, at: int
) -> npt.NDArray[np.float64]:
    """The one score a row for class ``classes[at]``: its probability column, or the
    margin (negated for the first class, as scikit-learn does for ``pos_label``)."""
    if scores.ndim == 2 and scores.shape[1] == 1:
        raise InputError(
            f"{name}.{method}(X) has one column: the estimator was fitted on one class "
            f"({quoted(classes[0])})"
            if classes
            else f"{name}.{method}(X) has one column"
        )
    if scores.ndim == 2:
        return np.ascontiguousarray(scores[:, at])
    return -scores if at == 0 else scores


def _strict(scores: npt.NDArray[np.float64], t: float) -> float:
    """``score > t`` as ``score >= threshold``: ``t`` itself when no score is on it,
    else the next double above it."""
    if bool(np.any(scores == t)):
        return float(np.nextafter(t, np.inf))
    return t


def estimator_rule(estimator: Any, X: Any, positive: Any = None) -> EstimatorRule:
    """A fitted classifier's scores of ``X`` and its decision rule (see the module's
    text); what the estimator refuses (not fitted, the wrong number of features) is
    one InputError naming it."""
    name = type(estimator).__name__
    _check_fitted(estimator, name)
    classes = list(getattr(estimator, "classes_", []))
    if _threshold_classifier(estimator):
        inner = getattr(estimator, "estimator_", None) or estimator.estimator
        asked = estimator.response_method
        methods = [PROBA, MARGIN] if asked == "auto" else [asked]
        scores, method = _response(inner, name, methods, X)
        if len(classes) != 2:
            raise InputError(f"{name} is fitted on {len(classes)} classes, not 2")
        pos_label = _pos_label(estimator)
        at = 1 if pos_label is None else _index(classes, pos_label)
        if at is None:
            raise InputError(f"{name}: pos_label {quoted(pos_label)} is not one of its classes")
        if hasattr(estimator, "best_threshold_"):
            t = float(estimator.best_threshold_)
        elif estimator.threshold == "auto":
            t = 0.5 if method == PROBA else 0.0
        else:
            t = float(estimator.threshold)
        return EstimatorRule(
            _binary(scores, classes, method, name, at), classes, method, classes[at], t
        )
    scores, method = _response(estimator, name, [PROBA, MARGIN], X)
    if scores.ndim == 2 and scores.shape[1] > 2:
        if positive is None:
            raise InputError(
                f"{name} is fitted on {scores.shape[1]} classes: name the positive one "
                "(positive=CLASS, the class against the rest), or report every class "
                f"with threshold_lab.report(y, estimator.{method}(X), "
                "classes=estimator.classes_)"
            )
        chosen = _index(classes, positive)
        return EstimatorRule(
            scores,
            classes or list(range(scores.shape[1])),
            method,
            None if chosen is None else classes[chosen],
            None,
        )
    at = 1
    if positive is not None and len(classes) == 2:
        found = _index(classes, positive)
        at = 1 if found is None else found  # a positive that is no class: refused later
    one = _binary(scores, classes, method, name, at)
    t = 0.5 if method == PROBA else 0.0
    # predict gives the second class only strictly above t; the first class at t too
    if at == 1:
        t = _strict(one, t)
    return EstimatorRule(one, classes, method, classes[at] if len(classes) == 2 else None, t)


def _pos_label(estimator: Any) -> Any:
    """The positive class a threshold classifier thresholds (None: its second)."""
    if hasattr(estimator, "pos_label"):
        return estimator.pos_label
    scorer = getattr(estimator, "_curve_scorer", None)
    try:
        return scorer._get_pos_label() if scorer is not None else None
    except (AttributeError, TypeError):
        return None


def predict_disagrees(
    estimator: Any, X: Any, rule: EstimatorRule, threshold: float | None
) -> int | None:
    """How many rows the report's decision (``score >= threshold`` for the rule's
    positive class) and ``estimator.predict(X)`` decide differently; None when it
    cannot be told (no predict, several classes without a positive, no threshold)."""
    if threshold is None or rule.positive is None:
        return None
    ours = rule.scores >= threshold
    if rule.several:
        ours = rule.scores[:, rule.classes.index(rule.positive)] >= threshold
    fn = getattr(estimator, "predict", None)
    if not callable(fn):
        return None
    try:
        predicted = np.asarray(fn(X)) == rule.positive
    except (TypeError, ValueError, AttributeError):
        return None
    return int(np.count_nonzero(predicted != ours))
