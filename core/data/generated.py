"""Presets made to order from a model of the scores, each reproducible from its spec.

``binormal:d=1.5,prevalence=0.1,n=200,seed=3``: negatives' latent scores N(0, 1),
positives' N(d, 1), ``d`` standard deviations apart, one draw from each of a class's
equal-probability strata (so few rows still follow the model); each row's score is the
posterior probability of the positive class under that model at that prevalence
(monotone in the latent score, so the ROC curve is the binormal one, and calibrated),
to 6 significant digits. ``beta:pos=4/2,neg=2/4,prevalence=0.3,n=100,seed=1``:
positives' scores Beta(4, 2), negatives' Beta(2, 4), to 3 decimals. The number of
positives is round(n · prevalence), at least one of each class; the seed fixes every
draw, so changing ``d`` with the same seed moves the same positives, and changing the
prevalence keeps each class close to its model (the explorer's overlap and balance
keys; overlap is binormal's). The rows are ordinary rows: editable, saved as CSV."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.errors import InputError, quoted

KINDS = ("binormal", "beta")
#: The largest generated preset: a teaching set, not a benchmark.
MOST_ROWS = 100_000
#: The separations and prevalences the overlap and balance keys step through.
D_STEP = 0.25
D_MOST = 8.0
PREVALENCES = ("1/100", "1/50", "1/20", "1/10", "1/5", "3/10", "2/5", "1/2")


@dataclass(frozen=True)
class Spec:
    """A generated preset's parameters (its name is :meth:`text`)."""

    kind: str
    n: int = 200
    prevalence: Fraction = Fraction(1, 2)
    seed: int = 1
    d: float = 1.5
    pos: tuple[float, float] = (4.0, 2.0)
    neg: tuple[float, float] = (2.0, 4.0)

    def text(self) -> str:
        p = f"{self.prevalence.numerator}/{self.prevalence.denominator}"
        common = f"prevalence={p},n={self.n},seed={self.seed}"
        if self.kind == "binormal":
            return f"binormal:d={_num(self.d)},{common}"
        pos = f"{_num(self.pos[0])}/{_num(self.pos[1])}"
        neg = f"{_num(self.neg[0])}/{_num(self.neg[1])}"
        return f"beta:pos={pos},neg={neg},{common}"

    @property
    def positives(self) -> int:
        k = round(self.n * self.prevalence)
        return min(max(k, 1), self.n - 1)


def is_generated(name: str) -> bool:
    """Whether ``name`` asks for a generated preset (``binormal:...``, ``beta:...``)."""
    return name.split(":", 1)[0].strip().lower() in KINDS


def parse_spec(text: str) -> Spec:
    """A generated preset's spec, each parameter checked (unknown ones named).

    >>> parse_spec("binormal:d=1.5,prevalence=0.1,n=200,seed=3").text()
    'binormal:d=1.5,prevalence=1/10,n=200,seed=3'
    >>> parse_spec("beta").text()
    'beta:pos=4/2,neg=2/4,prevalence=1/2,n=200,seed=1'
    """
    kind, _, rest = text.partition(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise InputError(f"no generated preset {quoted(kind)}; they are {', '.join(KINDS)}")
    spec = Spec(kind)
    allowed = ("d" if kind == "binormal" else "pos", "neg")[: 1 if kind == "binormal" else 2]
    names = (*allowed, "prevalence", "n", "seed")
    given: set[str] = set()
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not eq or key not in names:
            raise InputError(
                f"{kind} preset: {quoted(part)} is not one of {', '.join(k + '=' for k in names)}"
            )
        if key in given:
            raise InputError(f"{kind} preset: {key}= is given twice; give it once")
        given.add(key)
        spec = _set(spec, key, value)
    return spec


def _set(spec: Spec, key: str, value: str) -> Spec:
    where = f"{spec.kind} preset: {key}={value}"
    if key in ("n", "seed"):
        if not value.isascii() or not value.isdigit() or len(value) > 9:
            raise InputError(f"{where} is not a whole number from 0")
        number = int(value)
        if key == "n" and not 2 <= number <= MOST_ROWS:
            raise InputError(f"{where}: n is from 2 to {MOST_ROWS} rows")
        return replace(spec, n=number) if key == "n" else replace(spec, seed=number)
    if key == "prevalence":
        try:
            p = Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{where} is not a number such as 0.1 or 1/10") from None
        if not 0 < p < 1:
            raise InputError(f"{where}: the prevalence is strictly between 0 and 1")
        return replace(spec, prevalence=p)
    if key == "d":
        d = _float(value, where)
        if not 0 <= d <= D_MOST:
            raise InputError(f"{where}: d is from 0 to {_num(D_MOST)} standard deviations")
        return replace(spec, d=d)
    a, slash, b = value.partition("/")
    shape = (_float(a, where), _float(b, where)) if slash else None
    if shape is None or not all(0 < x <= 1000 for x in shape):
        raise InputError(f"{where}: give the Beta shapes as A/B, each above 0, such as 4/2")
    return replace(spec, pos=shape) if key == "pos" else replace(spec, neg=shape)


def _float(text: str, where: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise InputError(f"{where} is not a number") from None
    if not math.isfinite(x):
        raise InputError(f"{where} is not a finite number")
    return x


def _num(x: float) -> str:
    return format(x, "g")


def generate(spec: Spec) -> Dataset:
    """The rows of ``spec``: the same seed draws the same latent rows, so only what a
    parameter names changes when it does (positives first, then negatives, in the
    order drawn; ids ``p1``..., ``n1``...)."""
    rng = np.random.default_rng(spec.seed)
    k = spec.positives
    if spec.kind == "binormal":
        z_pos = _stratified(rng, k) + spec.d
        z_neg = _stratified(rng, spec.n - k)
        z = np.concatenate([z_pos, z_neg])
        prior = math.log(float(spec.prevalence) / (1 - float(spec.prevalence)))
        logit = spec.d * z - spec.d * spec.d / 2 + prior
        scores = _significant(1 / (1 + np.exp(-logit)), 6)
    else:
        # Draw the most either class could need, so changing the prevalence keeps each
        # class's first rows (the rows of one class are a prefix of the same stream).
        pos = rng.beta(*spec.pos, size=spec.n)[:k]
        neg = rng.beta(*spec.neg, size=spec.n)[: spec.n - k]
        scores = np.round(np.concatenate([pos, neg]), 3)
    labels = np.r_[np.ones(k, dtype=np.int64), np.zeros(spec.n - k, dtype=np.int64)]
    ids = [f"p{i + 1}" for i in range(k)] + [f"n{i + 1}" for i in range(spec.n - k)]
    return make_dataset(scores.astype(np.float64), labels, ids=ids)


def model_auc(spec: Spec) -> float | None:
    """The ROC AUC of the model the rows are drawn from (binormal: Φ(d/√2)); a sample's
    own differs from it by chance. None for beta (no closed form)."""
    if spec.kind != "binormal":
        return None
    return 0.5 * (1 + math.erf(spec.d / 2))  # Φ(d/√2) = (1 + erf(d/2))/2


def _significant(x: npt.NDArray[np.float64], digits: int) -> npt.NDArray[np.float64]:
    """``x`` to ``digits`` significant digits (a posterior of 1e-5 keeps its digits, where
    rounding to decimal places would tie it with its neighbours)."""
    with np.errstate(divide="ignore"):
        places = digits - 1 - np.floor(np.log10(np.abs(x)))
    places = np.where(np.isfinite(places), places, 0).astype(np.int64)
    return np.array([round(float(v), int(p)) for v, p in zip(x, places, strict=True)])


def _stratified(rng: np.random.Generator, m: int) -> npt.NDArray[np.float64]:
    """``m`` standard normal draws, one from each of ``m`` equal-probability strata
    (a seeded point in each), in a seeded order: a class's scores follow its model
    closely however few rows it has, so its AUC barely moves when only the prevalence
    does (plain draws of 10 positives put it anywhere from 0.75 to 0.95)."""
    u = (np.arange(m) + rng.random(m)) / m
    inverse = NormalDist().inv_cdf
    z = np.array([inverse(min(max(x, 1e-12), 1 - 1e-12)) for x in u], dtype=np.float64)
    return rng.permutation(z)


def description(spec: Spec) -> str:
    """What the generated rows are, in a sentence."""
    n, k = spec.n, spec.positives
    if spec.kind == "binormal":
        model = (
            f"negatives' latent scores N(0, 1), positives' N({_num(spec.d)}, 1); each score "
            "the posterior probability at this prevalence"
        )
    else:
        model = (
            f"positives' scores Beta({_num(spec.pos[0])}, {_num(spec.pos[1])}), negatives' "
            f"Beta({_num(spec.neg[0])}, {_num(spec.neg[1])})"
        )
    auc = model_auc(spec)
    own = "" if auc is None else f" The model's own ROC AUC is Φ(d/√2) ≈ {auc:.4f}."
    return f"{n} rows drawn with seed {spec.seed}, {k} positives: {model}.{own}"


def adjust(spec: Spec, what: str, step: int) -> Spec:
    """``spec`` with more (+1) or less (-1) overlap of the classes (binormal: ``d`` a
    quarter of a standard deviation less or more; beta: the positives' first shape half
    less or more, which moves their scores down or up), or its balance a step of
    :data:`PREVALENCES` up (+1, more positives) or down; the same seed.

    >>> adjust(parse_spec("binormal:d=1"), "overlap", 1).d
    0.75
    >>> adjust(parse_spec("binormal:prevalence=0.1"), "balance", 1).prevalence
    Fraction(1, 5)
    """
    if what == "overlap":
        if spec.kind != "binormal":
            raise InputError(
                "overlap steps a binormal preset's d; a beta preset's shapes are its "
                "name's (beta:pos=A/B,neg=A/B): open another to change them"
            )
        return replace(spec, d=min(max(spec.d - step * D_STEP, 0.0), D_MOST))
    ladder = [Fraction(p) for p in PREVALENCES]
    here = spec.prevalence
    if step > 0:
        above = [p for p in ladder if p > here]
        return replace(spec, prevalence=above[0] if above else here)
    below = [p for p in ladder if p < here]
    return replace(spec, prevalence=below[-1] if below else here)
