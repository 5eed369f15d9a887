"""The ROC corners against pROC's own rule for its "local maximas", written here from
pROC's documented algorithm: points ordered by specificity rising (pROC's order),
repeated (specificity, sensitivity) pairs dropped, then a point is a local maximum
where specificity rose into it and sensitivity falls out of it (or its sensitivity is
0), the first point where sensitivity falls after it, the last where specificity rose
into it; a single point is one. Checked with ties and weights of 0."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.curves.corners import corner_lines, local_maxima
from threshold_lab.core.data.dataset import make_dataset


def _proc_rule(rows: list[tuple[float, int, int]]) -> list[float | None]:
    """The thresholds (None: above all) pROC marks, from the rows: every cut at a
    distinct score or above all, as (specificity, sensitivity) in fractions."""
    pos = sum(w for _, y, w in rows if y)
    neg = sum(w for _, y, w in rows if not y)
    cuts: list[float | None] = [None, *sorted({s for s, _, _ in rows}, reverse=True)]
    points = []
    for t in cuts:
        tp = sum(w for s, y, w in rows if y and t is not None and s >= t)
        fp = sum(w for s, y, w in rows if not y and t is not None and s >= t)
        points.append((t, Fraction(neg - fp, neg), Fraction(tp, pos)))
    points.reverse()  # specificity rising: pROC's order (the lowest threshold first)
    seen: set[tuple[Fraction, Fraction]] = set()
    kept = []
    for t, sp, se in points:
        if (sp, se) not in seen:
            seen.add((sp, se))
            kept.append((t, sp, se))
    n = len(kept)
    if n == 1:
        return [kept[0][0]]
    marked = [kept[0][2] > kept[1][2]]
    for i in range(1, n - 1):
        rose = kept[i][1] > kept[i - 1][1]
        marked.append(rose and (kept[i][2] > kept[i + 1][2] or kept[i][2] == 0))
    marked.append(kept[n - 1][1] > kept[n - 2][1])
    return sorted(
        (t for (t, _, _), m in zip(kept, marked, strict=True) if m),
        key=lambda t: -1.0 if t is None else -t,
    )


scores = st.sampled_from([0.1, 0.2, 0.3, 0.5, 0.7, 0.9])
rows = st.lists(
    st.tuples(scores, st.integers(0, 1), st.integers(0, 3)),
    min_size=1,
    max_size=30,
)


@settings(max_examples=400, deadline=None)
@given(rows)
def test_the_corners_are_proc_s_local_maxima(given_rows: list[tuple[float, int, int]]) -> None:
    if not any(w for _, y, w in given_rows if y) or not any(w for _, y, w in given_rows if not y):
        return  # pROC needs both classes
    data = make_dataset(
        [s for s, _, _ in given_rows],
        [bool(y) for _, y, _ in given_rows],
        weights=[float(w) for _, _, w in given_rows],
    )
    sweep = curves_for(data).sweep
    got = [sweep.threshold_at(int(k)) for k in local_maxima(sweep)]
    assert got == _proc_rule(given_rows)


def test_the_corners_are_said_with_their_counts() -> None:
    from threshold_lab.core.data.presets import preset

    a = curves_for(preset("good").data)
    lines = corner_lines(a.sweep, a.local_maxima)
    assert lines[0].startswith("ROC corners (pROC's local maxima): 4 of 21 points")
    assert lines[1:] == [
        "  threshold 0.64: TPR 7/10, FPR 0/10",
        "  threshold 0.55: TPR 8/10, FPR 1/10",
        "  threshold 0.42: TPR 9/10, FPR 3/10",
        "  threshold 0.33: TPR 10/10, FPR 4/10",
    ]


def test_the_json_lists_the_corners_up_to_its_points() -> None:
    """Every corner where they fit the listing (--points), else those among the listed
    sweep points, each still a corner, with how many there are and which were listed;
    the streamed report says the same as the dict."""
    import json

    import numpy as np
    from threshold_lab.core.report.as_json import listed_points

    import threshold_lab as tl

    rng = np.random.default_rng(8)
    y = rng.random(3000) < 0.5
    s = rng.random(3000) + 0.2 * y  # a jagged curve: hundreds of corners
    r = tl.report(y, s)
    a = r.contents.first.analysis
    every = local_maxima(a.sweep)
    assert every.shape[0] > 500
    full = json.loads(r.to_json(points=None))["roc"]
    assert [c["index"] for c in full["local_maxima"]] == every.tolist()
    assert full["local_maxima_count"] == every.shape[0]
    assert full["local_maxima_selection"] == "every corner"
    some = json.loads(r.to_json(points=200))["roc"]
    listed = set(listed_points(a, 200).tolist())
    got = [c["index"] for c in some["local_maxima"]]
    assert 0 < len(got) <= 200 and set(got) <= set(every.tolist()) & listed
    assert got == sorted(set(every.tolist()) & listed)
    assert some["local_maxima_count"] == every.shape[0]
    assert some["local_maxima_selection"].startswith(f"the {len(got)} of the {every.shape[0]}")
    for c in some["local_maxima"]:
        k = c["index"]
        assert (c["tp"], c["fp"]) == (int(a.sweep.tp[k]), int(a.sweep.fp[k]))


def test_one_class_has_no_corners() -> None:
    """Without both classes there is no ROC curve (pROC refuses): no corners in the
    JSON, the reason said, and none marked in the sweep table."""
    import json

    import threshold_lab as tl

    r = tl.report([0, 0, 0, 0], [0.9, 0.7, 0.5, 0.2])
    roc = json.loads(r.to_json())["roc"]
    assert roc["local_maxima"] == [] and roc["local_maxima_count"] == 0
    assert roc["local_maxima_selection"] == "none: the ROC curve needs both actual classes"
    assert "corner" not in r.text()
