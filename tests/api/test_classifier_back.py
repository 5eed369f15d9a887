"""The threshold handed back to scikit-learn: ``r.classifier(estimator)`` is a
``FixedThresholdClassifier`` at the goal's threshold (else the report's), on the
response method the report's scores came from, with its positive class; its
``predict`` on the report's rows gives the report's counts exactly, ties included."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import FixedThresholdClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import threshold_lab as tl

X, Y = load_breast_cancer(return_X_y=True)


def _counts(estimator: Any, x: Any, y: Any) -> tuple[int, int, int, int]:
    tn, fp, fn, tp = confusion_matrix(y, estimator.predict(x)).ravel()
    return int(tp), int(fp), int(tn), int(fn)


def _report_counts(r: tl.Report) -> tuple[int, int, int, int]:
    k = r.counts
    return int(k.tp), int(k.fp), int(k.tn), int(k.fn)


@pytest.mark.parametrize(
    "make",
    [
        lambda: make_pipeline(StandardScaler(), LogisticRegression()),
        lambda: make_pipeline(StandardScaler(), LinearSVC()),
        lambda: DecisionTreeClassifier(max_depth=3, random_state=0),
    ],
    ids=["proba", "margin", "tree (ties)"],
)
@pytest.mark.parametrize("options", [{}, {"goal": "max f1"}, {"threshold": 0.3}], ids=str)
def test_its_predict_gives_the_report_s_counts(make: Any, options: dict[str, Any]) -> None:
    clf = make().fit(X, Y)
    r = tl.Report.from_estimator(clf, X, Y, **options)
    back = r.classifier(clf)
    assert isinstance(back, FixedThresholdClassifier)
    assert back.threshold == r.threshold
    assert back.response_method == ("decision_function" if "svc" in str(clf) else "predict_proba")
    assert _counts(back, X, Y) == _report_counts(r)


def test_a_score_exactly_on_the_estimator_s_threshold_is_decided_as_predict_decides() -> None:
    x = np.array([[0], [0], [1], [1], [1], [2]])
    y = np.array([0, 1, 0, 1, 1, 1])
    tree = DecisionTreeClassifier(random_state=0).fit(x, y)
    assert 0.5 in tree.predict_proba(x)[:, 1]  # two rows scored exactly 0.5: predict says 0
    r = tl.Report.from_estimator(tree, x, y)
    assert r.threshold == np.nextafter(0.5, 1)
    assert _counts(r.classifier(tree), x, y) == _counts(tree, x, y) == _report_counts(r)


def test_named_classes_keep_their_positive_class_and_a_goal_wins() -> None:
    names = np.where(Y == 1, "benign", "malignant")
    clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, names)
    r = tl.Report.from_estimator(clf, X, names, positive="malignant", goal="max f1")
    back = r.classifier(clf)
    assert back.pos_label == "malignant"
    goal = r.goal
    assert goal is not None and back.threshold == goal.threshold
    pred = back.predict(X)
    k = r.counts
    assert int(((pred == "malignant") & (names == "malignant")).sum()) == k.tp
    assert int(((pred == "malignant") & (names == "benign")).sum()) == k.fp


def test_scores_given_as_arrays_use_the_response_method_named() -> None:
    clf = make_pipeline(StandardScaler(), LinearSVC()).fit(X, Y)
    r = tl.report(Y, clf.decision_function(X), threshold=0.2)
    back = r.classifier(clf, response_method="decision_function")
    assert _counts(back, X, Y) == _report_counts(r)
    above = tl.report(Y, clf.decision_function(X), threshold=None).classifier(
        clf, response_method="decision_function"
    )
    assert above.threshold == np.inf and not above.predict(X).any()
