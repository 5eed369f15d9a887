"""Built-in fixtures from the source lessons, each with its opening threshold."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.dataset import Dataset, Model, make_dataset
from threshold_lab.core.data.generated import description, generate, is_generated, parse_spec
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.threshold import Threshold

_CANON_SCORES = (0.9, 0.8, 0.8, 0.4, 0.1)
_CANON_IDS = ("s1", "s2", "s3", "s4", "s5")

# The three score lists of the good / weak / imbalanced lesson: (positives, negatives).
_LESSON = {
    "good": (
        (0.95, 0.9, 0.86, 0.81, 0.77, 0.7, 0.64, 0.55, 0.42, 0.33),
        (0.6, 0.5, 0.45, 0.38, 0.3, 0.24, 0.18, 0.12, 0.08, 0.03),
    ),
    "weak": (
        (0.9, 0.75, 0.66, 0.58, 0.52, 0.47, 0.41, 0.35, 0.28, 0.2),
        (0.85, 0.7, 0.62, 0.55, 0.49, 0.44, 0.37, 0.3, 0.22, 0.1),
    ),
    "imbalanced": (
        (0.92, 0.78, 0.61, 0.4),
        (
            0.83,
            0.66,
            0.52,
            0.47,
            0.43,
            0.36,
            0.33,
            0.29,
            0.25,
            0.21,
            0.17,
            0.14,
            0.11,
            0.07,
            0.05,
            0.02,
        ),
    ),
}

_DELIVERY_LABELS = (1, 0, 0, 0, 1, 0, 0, 0, 0, 0)
_DELIVERY_A = (0.95, 0.85, 0.75, 0.65, 0.55, 0.45, 0.35, 0.25, 0.15, 0.05)
_DELIVERY_B = (0.86, 0.96, 0.66, 0.56, 0.76, 0.46, 0.36, 0.26, 0.16, 0.06)


@dataclass(frozen=True)
class Preset:
    """A named fixture: its rows, the threshold it opens at, and what it teaches."""

    name: str
    description: str
    data: Dataset
    threshold: Threshold
    #: Several models of the same rows (``data`` is the first's), or none.
    models: tuple[Model, ...] = ()
    #: Several classes (``data`` is the first class against the rest), or None.
    multiclass: Multiclass | None = None


def _lesson(name: str) -> Dataset:
    pos, neg = _LESSON[name]
    ids = [f"p{i + 1}" for i in range(len(pos))] + [f"n{i + 1}" for i in range(len(neg))]
    return make_dataset(list(pos) + list(neg), [1] * len(pos) + [0] * len(neg), ids=ids)


#: Triage of 20 cases into routine, urgent and critical: (routine, urgent, critical)
#: probabilities per case, by actual class. The two critical cases are both missed and
#: one routine case is called critical, so critical's F1 is 0: macro F1 (every class
#: equal) is far below weighted F1 (by support), the averaging trap.
_TRIAGE = {
    "routine": [
        (0.82, 0.13, 0.05),
        (0.78, 0.17, 0.05),
        (0.9, 0.07, 0.03),
        (0.71, 0.2, 0.09),
        (0.66, 0.24, 0.1),
        (0.85, 0.1, 0.05),
        (0.74, 0.16, 0.1),
        (0.69, 0.26, 0.05),
        (0.93, 0.05, 0.02),
        (0.61, 0.3, 0.09),
        (0.77, 0.15, 0.08),
        (0.58, 0.33, 0.09),
        (0.88, 0.08, 0.04),
        (0.3, 0.2, 0.5),
    ],
    "urgent": [(0.2, 0.7, 0.1), (0.1, 0.6, 0.3), (0.25, 0.55, 0.2), (0.5, 0.4, 0.1)],
    "critical": [(0.3, 0.6, 0.1), (0.45, 0.25, 0.3)],
}


def _triage() -> Multiclass:
    classes = tuple(_TRIAGE)
    rows = [(c, s) for c, scores in _TRIAGE.items() for s in scores]
    return Multiclass(
        classes,
        np.array([s for _, s in rows], dtype=np.float64),
        np.array([classes.index(c) for c, _ in rows], dtype=np.int64),
        ids=tuple(f"case{i + 1}" for i in range(len(rows))),
    )


def _build() -> dict[str, Preset]:
    canon = make_dataset(_CANON_SCORES, [1, 0, 1, 0, 1], ids=_CANON_IDS)
    delivery_ids = [str(i) for i in range(1, 11)]
    delivery_a = make_dataset(_DELIVERY_A, _DELIVERY_LABELS, ids=delivery_ids)
    deliveries = (Model("A", delivery_a), Model("B", delivery_a.with_scores(_DELIVERY_B)))
    presets = [
        Preset(
            "canonical",
            "Five hand-authored rows; the two 0.8 scores are tied "
            "across classes. Opens at 0.5: precision, recall and F1 are all 2/3.",
            canon,
            0.5,
        ),
        Preset(
            "predict-no-positives",
            "The canonical rows above all scores: nothing is "
            "predicted positive, so precision is undefined while recall and F1 are 0.",
            canon,
            None,
        ),
        Preset(
            "no-actual-positives",
            "The canonical scores with every label 0: recall, "
            "ROC and AUC are undefined; precision and F1 are 0 at 0.5.",
            make_dataset(_CANON_SCORES, [0] * 5, ids=_CANON_IDS),
            0.5,
        ),
        Preset(
            "one-actual-positive",
            "The canonical scores with only s1 positive: a small "
            "imbalance; never predicting positive scores a higher accuracy (4/5).",
            make_dataset(_CANON_SCORES, [1, 0, 0, 0, 0], ids=_CANON_IDS),
            0.5,
        ),
        Preset(
            "all-tied",
            "Five rows all scored 0.5: one tie group, a single diagonal ROC "
            "segment (AUC 1/2), and AP equal to the prevalence (3/5).",
            make_dataset([0.5] * 5, [1, 0, 1, 0, 1], ids=_CANON_IDS),
            0.5,
        ),
        Preset(
            "ap-vs-trapezoid",
            "Scores .9 .8 .7 .6 with labels 1 0 1 0: average "
            "precision 5/6 but trapezoidal PR area 19/24.",
            make_dataset([0.9, 0.8, 0.7, 0.6], [1, 0, 1, 0], ids=["a", "b", "c", "d"]),
            0.75,
        ),
        Preset(
            "good",
            "A good model, 10 positives and 10 negatives: AUC 0.92; "
            "precision and recall 0.8 at 0.5.",
            _lesson("good"),
            0.5,
        ),
        Preset("weak", "A weak model, 10 and 10: AUC 0.55.", _lesson("weak"), 0.5),
        Preset(
            "imbalanced",
            "4 positives, 16 negatives: accuracy 0.8 at 0.5, the same as "
            "always saying negative. AUC 0.875.",
            _lesson("imbalanced"),
            0.5,
        ),
        Preset(
            "delivery-a",
            "Delayed deliveries, model A: AUC 13/16 but AP 0.7 (a delay at the very top).",
            make_dataset(_DELIVERY_A, _DELIVERY_LABELS, ids=delivery_ids),
            0.7,
        ),
        Preset(
            "delivery-b",
            "Delayed deliveries, model B: AUC 7/8 but AP 7/12. AUC and "
            "AP rank models A and B in opposite orders.",
            make_dataset(_DELIVERY_B, _DELIVERY_LABELS, ids=delivery_ids),
            0.7,
        ),
        Preset(
            "deliveries",
            "Both delivery models on the same ten deliveries: B is better by AUC (7/8 vs "
            "13/16), A by AP (7/10 vs 7/12).",
            delivery_a,
            0.7,
            deliveries,
        ),
        Preset(
            "triage",
            "Three classes, one rare: both critical cases are missed, so macro F1 (every "
            "class equal) is far below weighted F1 (by support).",
            (triage := _triage()).one_vs_rest(0),
            0.5,
            multiclass=triage,
        ),
    ]
    return {p.name: p for p in presets}


PRESETS: dict[str, Preset] = _build()
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)


def preset(name: str) -> Preset:
    """The built-in fixture called ``name``, or a generated one (``binormal:d=1.5,...``,
    ``beta:...``: :mod:`~threshold_lab.core.data.generated`), named by its full spec.

    >>> preset("canonical").data.scores.tolist()
    [0.9, 0.8, 0.8, 0.4, 0.1]
    >>> preset("binormal:n=10").name
    'binormal:d=1.5,prevalence=1/2,n=10,seed=1'
    """
    if is_generated(name):
        spec = parse_spec(name)
        return Preset(spec.text(), description(spec), generate(spec), 0.5)
    try:
        return PRESETS[name]
    except KeyError:
        raise InputError(
            f"no preset named {quoted(name)}; presets are: {', '.join(PRESET_NAMES)}, "
            "and generated ones: binormal:d=D,prevalence=P,n=N,seed=S and beta:pos=A/B,"
            "neg=A/B,prevalence=P,n=N,seed=S"
        ) from None
