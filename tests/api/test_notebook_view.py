"""A notebook shows every model: ``_repr_html_`` of a several-model report has each
model's matrix and headline metrics under its name and the comparison (AUC difference
with DeLong's interval and p); groups and folds in short; ``repr()`` of a comparison is
one short line."""

from __future__ import annotations

import html
import re

import threshold_lab as tl

Y = [1, 0, 1, 0, 1, 0]
MODELS = {"logistic": [0.9, 0.8, 0.7, 0.4, 0.3, 0.2], "forest": [0.8, 0.9, 0.3, 0.4, 0.7, 0.1]}


def _cells(text: str) -> list[str]:
    return [html.unescape(c) for c in re.findall(r"<t[dh]>(.*?)</t[dh]>", text)]


def test_each_model_is_shown_under_its_name_with_the_comparison() -> None:
    r = tl.report(Y, MODELS)
    page = r._repr_html_()
    for name, model in r.models.items():
        at = page.index(f"<b>{name}</b>")
        k = model.counts
        cells = _cells(page[at:])
        assert cells[4:6] == [f"TP {k.tp}", f"FN {k.fn}"]
        assert cells[cells.index("ROC AUC") + 1] == model.roc_auc.metric.value_or_reason()
    (c,) = r.comparisons
    assert c.delong is not None
    cells = _cells(page[page.index("Comparisons") :])
    assert cells[4:8] == [
        "logistic − forest",
        c.auc_difference.value_or_reason(),
        c.delong.interval.text(),
        c.delong.p.text(),
    ]


def test_groups_and_folds_are_shown_in_short() -> None:
    g = tl.report([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1], groups=list("aabbb"))._repr_html_()
    cells = _cells(g[g.index("Groups by") :])
    assert cells[9:18] == ["a", "2", "1", "1", "0", "0", "2/2", "1/1", "1/1"]
    f = tl.report(
        [1, 0, 1, 0, 1, 0, 1, 0], [0.9, 0.1, 0.8, 0.3, 0.6, 0.7, 0.4, 0.2], folds=list("aaaabbbb")
    )._repr_html_()
    assert "Folds by fold: ROC AUC mean 0.7500, sd 0.3536" in f
    assert _cells(f[f.index("Folds by") :])[4:8] == ["a", "4", "1", "1"]


def test_a_comparison_s_repr_is_one_short_line() -> None:
    (c,) = tl.report(Y, MODELS).comparisons
    said = repr(c)
    assert "\n" not in said and len(said) < 200
    assert said.startswith("<Comparison logistic − forest: ROC AUC 2/3 vs 5/9, difference 1/9 (")
