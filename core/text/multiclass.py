"""The multiclass summary in tables (the report) and sentences (plain mode)."""

from __future__ import annotations

from threshold_lab.core.metrics.metric import Metric, format_count
from threshold_lab.core.multiclass.metrics import Average, MulticlassReport

AVERAGED = (
    ("precision", "precision"),
    ("recall", "recall"),
    ("f1", "F1"),
    ("roc_auc", "ROC AUC (one-vs-rest)"),
    ("roc_auc_ovo", "ROC AUC (one-vs-one)"),
    ("average_precision", "AP (one-vs-rest)"),
)


def _v(m: Metric) -> str:
    """A fraction (the counts, where it has them) while it is short (a denominator
    under 1000), else the decimal."""
    return m.brief()


def _a(m: Metric) -> str:
    """An average: its fraction (while short) and its decimal, so averages compare."""
    if m.value is None:
        return "undefined"
    if m.denominator is not None and m.denominator < 1000:
        return m.value_text()
    return _v(m)


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return [
        "  " + "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]


def _avg_note(a: Average) -> str:
    if not a.left_out:
        return ""
    return " (without " + ", ".join(c for c, _ in a.left_out) + ": undefined there)"


def multiclass_lines(r: MulticlassReport) -> list[str]:
    """The k×k matrix, the per-class table and the averages, for the report."""
    names = list(r.classes)
    k = len(names)
    out = [
        f"Multiclass summary: {k} classes, each row decided by its highest score (a tie goes "
        f"to the class listed first; {r.argmax_ties} row{'s' if r.argmax_ties != 1 else ''} "
        "decided by a tie)",
        "Confusion matrix (rows: actual, columns: predicted)",
    ]
    rows = [["", *[f"pred {n}" for n in names], "total"]]
    for i, n in enumerate(names):
        rows.append(
            [
                f"actual {n}",
                *[format_count(x) for x in r.confusion[i]],
                format_count(r.confusion[i].sum()),
            ]
        )
    rows.append(
        [
            "total",
            *[format_count(x) for x in r.confusion.sum(axis=0)],
            format_count(r.confusion.sum()),
        ]
    )
    out += _table(rows)
    out.append("Per class (one against the rest)")
    per = [["class", "precision", "recall", "F1", "support", "ROC AUC", "AP"]]
    for p in r.per_class:
        per.append(
            [
                p.name,
                _v(p.precision),
                _v(p.recall),
                _v(p.f1),
                format_count(p.support),
                _v(p.roc_auc),
                _v(p.average_precision),
            ]
        )
    out += _table(per)
    for p in r.per_class:
        for m in (p.precision, p.recall, p.roc_auc):
            if m.value is None:
                out.append(f"  {p.name}: {m.name or 'metric'} undefined: {m.reason}")
    out.append(
        "Averages (macro: every class equal; weighted: by support, and one-vs-one by "
        "each pair's rows; micro: pooled counts)"
    )
    avg = [["", "macro", "weighted", "micro"]]
    for key, label in AVERAGED:
        avg.append(
            [
                label,
                *[
                    _a(r.averages[kind][key].metric) if key in r.averages[kind] else "—"
                    for kind in ("macro", "weighted", "micro")
                ],
            ]
        )
    out += _table(avg)
    for kind in ("macro", "weighted"):
        for key, label in AVERAGED:
            note = _avg_note(r.averages[kind][key])
            if note:
                out.append(f"  {kind} {label}{note}")
    out.append(
        f"  accuracy {_v(r.accuracy)}; balanced accuracy (macro recall) "
        f"{_v(r.balanced_accuracy.metric)}{_avg_note(r.balanced_accuracy)}; chance "
        f"level 1/{k}"
    )
    for m in (r.log_loss, r.brier):
        out.append(f"  {m.describe()}")
    if r.probability_note:
        out.append(f"  {r.probability_note}")
    return out


def classes_words(r: MulticlassReport, shown: int) -> list[str]:
    """A sentence a class: its support and one-vs-rest ranking (plain mode's classes),
    the one shown against the rest said so."""
    out = []
    for i, p in enumerate(r.per_class):
        note = " (shown, against the rest)" if i == shown else ""
        auc, ap = (
            m.short() if m.value is not None else "undefined"
            for m in (p.roc_auc, p.average_precision)
        )
        out.append(f"{p.name}{note}: support {format_count(p.support)}, ROC AUC {auc}, AP {ap}.")
    return out


def multiclass_words(r: MulticlassReport) -> list[str]:
    """The same in sentences (plain mode)."""
    k = len(r.classes)
    out = [
        f"{k} classes: {', '.join(r.classes)}. Each row goes to its highest score; "
        f"{r.argmax_ties} row{'s were' if r.argmax_ties != 1 else ' was'} decided by a tie "
        "(to the class listed first)."
    ]
    for i, name in enumerate(r.classes):
        cells = ", ".join(f"{format_count(r.confusion[i][j])} as {r.classes[j]}" for j in range(k))
        out.append(f"Actual {name}: {cells}.")
    for p in r.per_class:
        out.append(
            f"{p.name}: precision {_v(p.precision)}, recall {_v(p.recall)}, F1 {_v(p.f1)}, "
            f"support {format_count(p.support)}, ROC AUC {_v(p.roc_auc)}, AP "
            f"{_v(p.average_precision)} (one against the rest)."
        )
    for key, label in AVERAGED:
        parts = [
            f"{kind} {_a(r.averages[kind][key].metric)}{_avg_note(r.averages[kind][key])}"
            for kind in ("macro", "weighted", "micro")
            if key in r.averages[kind]
        ]
        out.append(f"{label}: " + ", ".join(parts) + ".")
    out.append(
        f"Accuracy {_v(r.accuracy)}; balanced accuracy {_v(r.balanced_accuracy.metric)} "
        f"(the macro average of recall; chance level is 1/{k}). Macro weighs every class "
        "equally, weighted by support: neither is safe for every question."
    )
    out.append(f"{r.log_loss.describe()}. {r.brier.describe()}.")
    if r.probability_note:
        out.append(f"{r.probability_note}.")
    return out
