"""Report.from_estimator reports at the estimator's own decision rule: its counts are
the estimator's ``predict`` (the oracle here), whatever the estimator thresholds."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import FixedThresholdClassifier, TunedThresholdClassifierCV
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

import threshold_lab as tl


def _cancer() -> tuple[Any, Any]:
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def _predicted(clf: Any, X: Any, y: Any, positive: Any) -> tuple[int, int, int, int]:
    """TP, FP, TN, FN of ``clf.predict(X)`` with ``positive`` against the rest."""
    tn, fp, fn, tp = confusion_matrix(y == positive, clf.predict(X) == positive).ravel()
    return int(tp), int(fp), int(tn), int(fn)


def _counts(r: tl.Report) -> tuple[int, int, int, int]:
    k = r.counts
    return int(k.tp), int(k.fp), int(k.tn), int(k.fn)


def test_linear_svc_is_reported_at_margin_zero() -> None:
    X, y = _cancer()
    svc = LinearSVC(C=0.01).fit(X, y)
    r = tl.Report.from_estimator(svc, X, y)
    assert _counts(r) == _predicted(svc, X, y, 1)
    assert r.threshold == 0.0
    assert r.source == "LinearSVC decision_function"
    # not the 0.5 it was reported at before, which cuts the margins elsewhere
    assert _counts(r) != _counts(tl.report(y, svc.decision_function(X)))


def test_logistic_regression_is_reported_at_one_half_of_predict_proba() -> None:
    X, y = _cancer()
    lr = LogisticRegression(C=0.01).fit(X, y)
    r = tl.Report.from_estimator(lr, X, y)
    assert _counts(r) == _predicted(lr, X, y, 1)
    assert r.threshold == 0.5
    assert r.source == "LogisticRegression predict_proba"
    assert r.to_dict()["source"] == "LogisticRegression predict_proba"


def test_fixed_threshold_classifier_is_reported_at_its_threshold() -> None:
    X, y = _cancer()
    clf = FixedThresholdClassifier(LogisticRegression(C=0.01), threshold=0.9).fit(X, y)
    r = tl.Report.from_estimator(clf, X, y)
    assert _counts(r) == _predicted(clf, X, y, 1)
    assert r.threshold == 0.9
    assert r.source == "FixedThresholdClassifier predict_proba"
    assert _counts(r) != _predicted(clf.estimator_, X, y, 1)  # 0.9 is not 0.5 here


def test_fixed_threshold_on_margins_for_the_first_class() -> None:
    X, y = _cancer()
    clf = FixedThresholdClassifier(
        LinearSVC(C=0.01), threshold=0.5, response_method="decision_function", pos_label=0
    ).fit(X, y)
    r = tl.Report.from_estimator(clf, X, y)
    assert _counts(r) == _predicted(clf, X, y, 0)
    assert r.threshold == 0.5
    assert r.source == "FixedThresholdClassifier decision_function"
    assert r.positives == int((y == 0).sum())


def test_tuned_threshold_classifier_is_reported_at_its_best_threshold() -> None:
    X, y = _cancer()
    clf = TunedThresholdClassifierCV(
        LogisticRegression(C=0.01), cv=3, random_state=0, scoring="balanced_accuracy"
    ).fit(X, y)
    r = tl.Report.from_estimator(clf, X, y)
    assert _counts(r) == _predicted(clf, X, y, 1)
    assert r.threshold == clf.best_threshold_
    assert r.source == "TunedThresholdClassifierCV predict_proba"


def test_a_threshold_given_wins_over_the_estimators() -> None:
    X, y = _cancer()
    clf = FixedThresholdClassifier(LogisticRegression(C=0.01), threshold=0.9).fit(X, y)
    r = tl.Report.from_estimator(clf, X, y, threshold=0.5)
    assert r.threshold == 0.5
    assert _counts(r) == _counts(tl.report(y, clf.predict_proba(X)[:, 1], threshold=0.5))
    assert tl.Report.from_estimator(clf, X, y, source="mine").source == "mine"


def test_a_margin_exactly_zero_is_negative_as_predict_says() -> None:
    X = np.array([[-1.0, 0.0], [0.0, 3.0], [0.0, -2.0], [2.0, 1.0]])
    y = np.array([0, 1, 0, 1])
    svc = LinearSVC().fit(X, y)
    svc.coef_, svc.intercept_ = np.array([[1.0, 0.0]]), np.array([0.0])
    assert list(svc.decision_function(X)) == [-1.0, 0.0, 0.0, 2.0]
    r = tl.Report.from_estimator(svc, X, y)
    assert _counts(r) == _predicted(svc, X, y, 1) == (1, 0, 2, 1)
    assert r.threshold == np.nextafter(0.0, np.inf)


def test_three_classes_each_against_the_rest_as_predict() -> None:
    X, y = load_iris(return_X_y=True)
    lr = LogisticRegression(max_iter=1000).fit(X, y)
    for c in (0, 1, 2):
        r = tl.Report.from_estimator(lr, X, y, positive=c)
        assert _counts(r) == _predicted(lr, X, y, c)
    # Without positive=, refused (never one class against the rest unasked), saying
    # how to report every class; that report's summary is predict's.
    with pytest.raises(tl.InputError, match=r"fitted on 3 classes: name the positive one"):
        tl.Report.from_estimator(lr, X, y)
    whole = tl.report(y, lr.predict_proba(X), classes=lr.classes_)
    assert whole.multiclass is not None
    assert (whole.multiclass.confusion == confusion_matrix(y, lr.predict(X))).all()


def test_a_positive_that_is_not_a_class_is_refused() -> None:
    X, y = load_iris(return_X_y=True)
    lr = LogisticRegression(max_iter=1000).fit(X, y)
    with pytest.raises(tl.InputError, match="positive 7 is not one of the classes"):
        tl.Report.from_estimator(lr, X, y, positive=7)
