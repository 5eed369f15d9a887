"""Differential checks against pROC itself, where R and pROC are installed (Debian's
r-cran-proc; skipped otherwise, the suite never needs them): on random data, the
smoothed curves (pROC's sensitivities at its specificities and its smoothed AUC: 1e-6
binormal and normal, 1e-4 density), the rates at coordinates (coords), the power of
one curve and of two (power.roc.test, from data and from parameters), and the
resampling tests' p-values within Monte-Carlo error (roc.test: bootstrap, paired and
unpaired, of partial AUCs, Venkatraman's, the sensitivity at a specificity)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from threshold_lab.core.curves.coordinates import sensitivity_at, specificity_at
from threshold_lab.core.curves.smooth import smooth
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset

import threshold_lab as tl


def _have_proc() -> bool:
    if shutil.which("Rscript") is None:
        return False
    done = subprocess.run(
        ["Rscript", "-e", "library(pROC)"], capture_output=True, text=True, check=False
    )
    return done.returncode == 0


pytestmark = pytest.mark.skipif(not _have_proc(), reason="R with pROC is not installed")

SCRIPT = r"""
suppressMessages(library(pROC))
say <- function(name, x) cat(name, format(x, digits = 17), "\n")
d <- read.csv(commandArgs(TRUE)[1])
v <- as.numeric(strsplit(commandArgs(TRUE)[2], ",")[[1]])
r <- roc(d$label, d$score, quiet = TRUE, direction = "<", levels = c(0, 1))
for (m in c("binormal", "density", "fitdistr")) {
  s <- smooth(r, method = m)
  say(paste("auc", m), as.numeric(auc(s)))
  say(paste("sp", m), s$specificities)
  say(paste("se", m), s$sensitivities)
}
say("coords_se", coords(r, c(0.8, 0.9), input = "specificity", ret = "sensitivity")[, 1])
say("coords_sp", coords(r, c(0.5, 0.9), input = "sensitivity", ret = "specificity")[, 1])
say("power", power.roc.test(auc = v[8], ncases = v[9], ncontrols = v[10])$power)
say("ncases", power.roc.test(auc = v[8], power = 0.9, kappa = v[11])$ncases)
r2 <- roc(d$label, d$other, quiet = TRUE, direction = "<", levels = c(0, 1))
say("two_power", power.roc.test(r, r2)$power)
say("two_ncases", power.roc.test(r, r2, power = 0.8)$ncases)
p <- list(A1 = v[1], B1 = v[2], A2 = v[3], B2 = v[4], rn = v[5], ra = v[6], delta = v[7])
say("param_ncases", power.roc.test(p, power = 0.85, kappa = 1.5)$ncases)
p$FPR11 <- 0; p$FPR12 <- 0.3; p$FPR21 <- 0; p$FPR22 <- 0.3
say("partial_power", power.roc.test(p, ncases = 150, ncontrols = 200)$power)
"""


def _run(
    tmp_path: Path, y: np.ndarray, s: np.ndarray, other: np.ndarray, values: list[float]
) -> dict[str, list[float]]:
    data = tmp_path / "rows.csv"
    lines = "".join(
        f"{int(a)},{float(b)!r},{float(c)!r}\n" for a, b, c in zip(y, s, other, strict=True)
    )
    data.write_text("label,score,other\n" + lines)
    script = tmp_path / "check.R"
    script.write_text(SCRIPT)
    done = subprocess.run(
        ["Rscript", str(script), str(data), ",".join(repr(v) for v in values)],
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, list[float]] = {}
    for line in done.stdout.splitlines():
        words = line.split()
        if words[0] in ("auc", "sp", "se"):
            out[f"{words[0]} {words[1]}"] = [float(w) for w in words[2:]]
        else:
            out[words[0]] = [float(w) for w in words[1:]]
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_smoothing_coords_and_power_agree_with_proc(seed: int, tmp_path: Path) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(60, 300))
    y = (rng.random(n) < rng.uniform(0.2, 0.6)).astype(int)
    y[:2] = [0, 1]
    s = np.round(rng.normal(0, 1, n) + rng.uniform(0.3, 1.5) * y, int(rng.integers(1, 4)))
    other = np.round(0.6 * s + rng.normal(0, 0.8, n), 2)
    # Random parameters: two binormal curves (a, b, a, b, rn, ra, delta), then one
    # curve's AUC, cases, controls and κ.
    values = [
        float(rng.uniform(0.8, 2.5)),
        float(rng.uniform(0.6, 1.4)),
        float(rng.uniform(0.5, 2.0)),
        float(rng.uniform(0.6, 1.4)),
        float(rng.uniform(0.0, 0.8)),
        float(rng.uniform(0.0, 0.8)),
        float(rng.uniform(0.03, 0.12)),
        float(rng.uniform(0.6, 0.9)),
        float(rng.integers(20, 80)),
        float(rng.integers(20, 120)),
        float(rng.uniform(0.5, 3)),
    ]
    proc = _run(tmp_path, y, s, other, values)
    sweep = build_sweep(make_dataset(s, y))
    for method, name, tol in (
        ("binormal", "binormal", 1e-6),
        ("density", "density", 1e-4),
        ("normal", "fitdistr", 1e-6),
    ):
        ours = smooth(sweep, method)
        assert ours.auc == pytest.approx(proc[f"auc {name}"][0], abs=tol)
        # pROC's points run by rising specificity; ours by rising FPR.
        assert np.allclose(ours.fpr, 1 - np.array(proc[f"sp {name}"])[::-1], atol=tol, rtol=0)
        assert np.allclose(ours.tpr, np.array(proc[f"se {name}"])[::-1], atol=tol, rtol=0)
    for sp, se in zip((0.8, 0.9), proc["coords_se"], strict=True):
        assert sensitivity_at(sweep, sp).value == pytest.approx(se, abs=1e-12)
    for se, sp in zip((0.5, 0.9), proc["coords_sp"], strict=True):
        assert specificity_at(sweep, se).value == pytest.approx(sp, abs=1e-12)
    one = tl.power(auc=values[7], cases=values[8], controls=values[9])
    assert one.power == pytest.approx(proc["power"][0], abs=1e-6)
    solved = tl.power(auc=values[7], power=0.9, kappa=values[10])
    assert solved.unrounded is not None
    assert solved.unrounded[0] == pytest.approx(proc["ncases"][0], rel=1e-6)
    two = tmp_path / "two.csv"
    two.write_text(
        "label,score_a,score_b\n"
        + "".join(
            f"{int(a)},{float(b)!r},{float(c)!r}\n" for a, b, c in zip(y, s, other, strict=True)
        )
    )
    assert tl.power(from_file=str(two)).power == pytest.approx(proc["two_power"][0], abs=1e-6)
    sized = tl.power(from_file=str(two), power=0.8)
    assert sized.unrounded is not None
    assert sized.unrounded[0] == pytest.approx(proc["two_ncases"][0], rel=1e-6)
    names = ("a1", "b1", "a2", "b2", "rn", "ra", "delta")
    p: dict[str, Any] = dict(zip(names, values, strict=False))
    sized = tl.power(**p, power=0.85, kappa=1.5)
    assert sized.unrounded is not None
    assert sized.unrounded[0] == pytest.approx(proc["param_ncases"][0], rel=1e-6)
    part = tl.power(**p, cases=150, controls=200, partial_auc="fpr:0-0.3")
    assert part.power == pytest.approx(proc["partial_power"][0], abs=1e-6)


MC_SCRIPT = r"""
suppressMessages(library(pROC))
d <- read.csv(commandArgs(TRUE)[1])
r1 <- roc(d$label, d$a, quiet = TRUE, direction = "<", levels = c(0, 1))
r2 <- roc(d$label, d$b, quiet = TRUE, direction = "<", levels = c(0, 1))
set.seed(as.integer(commandArgs(TRUE)[2]))
t <- function(...) roc.test(r1, r2, boot.n = 2000, progress = "none", ...)$p.value
cat("bootstrap", t(method = "bootstrap"), "\n")
cat("venkatraman", t(method = "venkatraman"), "\n")
cat("sensitivity", t(method = "specificity", specificity = 0.8), "\n")
cat("unpaired", t(method = "bootstrap", paired = FALSE), "\n")
cat("specificity", t(method = "sensitivity", sensitivity = 0.8), "\n")
cat("venkatraman_unpaired", t(method = "venkatraman", paired = FALSE), "\n")
p1 <- roc(d$label, d$a, quiet = TRUE, direction = "<", levels = c(0, 1), partial.auc = c(1, 0.8))
p2 <- roc(d$label, d$b, quiet = TRUE, direction = "<", levels = c(0, 1), partial.auc = c(1, 0.8))
pt <- roc.test(p1, p2, method = "bootstrap", boot.n = 2000, progress = "none")
cat("partial", pt$p.value, "\n")
"""


@pytest.mark.parametrize("seed", [11, 12])
def test_resampling_tests_agree_with_proc_within_monte_carlo_error(
    seed: int, tmp_path: Path
) -> None:
    """Each side draws its own 2,000 resamples: the p-values agree within 4 standard
    errors of a proportion at B = 2,000, for each of the two estimates (√2 of one)."""
    rng = np.random.default_rng(seed)
    n = 160
    y = (rng.random(n) < 0.4).astype(int)
    a = np.round(rng.normal(size=n) + 0.9 * y, 1)  # ties
    b = np.round(0.6 * a + rng.normal(0, 0.8, n) + 0.25 * y, 1)
    data = tmp_path / "two.csv"
    rows = "".join(f"{int(p)},{float(x)!r},{float(z)!r}\n" for p, x, z in zip(y, a, b, strict=True))
    data.write_text("label,a,b\n" + rows)
    script = tmp_path / "mc.R"
    script.write_text(MC_SCRIPT)
    done = subprocess.run(
        ["Rscript", str(script), str(data), str(seed)], capture_output=True, text=True, check=True
    )
    proc = {line.split()[0]: float(line.split()[1]) for line in done.stdout.splitlines()}
    scores = {"a": a.tolist(), "b": b.tolist()}
    common: dict[str, Any] = {"bootstrap": 2000, "permutations": 2000, "seed": seed}
    paired = tl.report(
        y.tolist(),
        scores,
        test=["bootstrap", "venkatraman", "sensitivity", "specificity"],
        at_specificity=0.8,
        at_sensitivity=0.8,
        **common,
    ).to_dict()["comparison"][0]
    partial = tl.report(
        y.tolist(), scores, test="bootstrap", partial_auc="fpr:0-0.2", bootstrap=2000, seed=seed
    ).to_dict()["comparison"][0]
    unpaired = tl.report(
        y.tolist(), scores, test=["bootstrap", "venkatraman"], unpaired=True, **common
    ).to_dict()["comparison"][0]
    ours = {
        "bootstrap": paired["auc_difference"]["bootstrap"]["p_value"],
        "venkatraman": paired["auc_difference"]["venkatraman"]["p_value"],
        "sensitivity": paired["sensitivity_difference"]["bootstrap"]["p_value"],
        "unpaired": unpaired["auc_difference"]["bootstrap"]["p_value"],
        "specificity": paired["specificity_difference"]["bootstrap"]["p_value"],
        "venkatraman_unpaired": unpaired["auc_difference"]["venkatraman"]["p_value"],
        "partial": partial["partial_auc_difference"][0]["bootstrap"]["p_value"],
    }
    for name, p in proc.items():
        se = np.sqrt(max(p, 0.01) * (1 - min(p, 0.99)) / 2000)
        assert abs(ours[name] - p) <= 4 * np.sqrt(2) * se, (name, ours[name], p)


EXACT_SCRIPT = r"""
suppressMessages(library(pROC))
say <- function(name, x) cat(name, format(x, digits = 17), "\n")
d <- read.csv(commandArgs(TRUE)[1])
r1 <- roc(d$label, d$a, quiet = TRUE, direction = "<", levels = c(0, 1))
r2 <- roc(d$label, d$b, quiet = TRUE, direction = "<", levels = c(0, 1))
lm <- coords(r1, "local maximas", ret = c("sensitivity", "specificity"))
say("lm_se", lm$sensitivity)
say("lm_sp", lm$specificity)
tl <- coords(r1, "best", best.method = "closest.topleft", ret = c("sensitivity", "specificity"))
say("topleft_se", tl$sensitivity)
say("topleft_sp", tl$specificity)
yw <- coords(r1, "best", best.method = "youden", best.weights = c(2, 0.3),
             ret = c("sensitivity", "specificity"))
say("youden_se", yw$sensitivity)
say("youden_sp", yw$specificity)
say("var", c(var(r1), var(r2), cov(r1, r2)))
say("ci_auc", as.numeric(ci.auc(r1))[c(1, 3)])
set.seed(7)
ci <- ci.se(r1, specificities = c(0.8, 0.9), boot.n = 2000, progress = "none")
say("ci_se_low", ci[, 1])
say("ci_se_high", ci[, 3])
cs <- ci.sp(r1, sensitivities = 0.8, boot.n = 2000, progress = "none")
say("ci_sp", as.numeric(cs)[c(1, 3)])
cb <- ci.auc(r1, method = "bootstrap", boot.n = 2000, progress = "none")
say("ci_auc_boot", as.numeric(cb)[c(1, 3)])
ct <- ci.thresholds(r1, thresholds = 0.5, boot.n = 2000, progress = "none")
say("ci_thr", c(ct$sensitivity[c(1, 3)], ct$specificity[c(1, 3)]))
"""


@pytest.mark.parametrize("seed", [21, 22])
def test_best_thresholds_corners_delong_and_intervals_agree_with_proc(
    seed: int, tmp_path: Path
) -> None:
    """Exact where pROC is (the corners, the best points, DeLong's variances and
    interval: 1e-12 or 1e-9); the bootstrap intervals at coordinates within
    Monte-Carlo error (2,000 resamples a side: the ends within three steps of the
    rates plus 0.02)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(80, 200))
    y = (rng.random(n) < 0.4).astype(int)
    y[:2] = [0, 1]
    a = np.round(rng.normal(size=n) + 0.9 * y, 1)
    b = np.round(0.5 * a + rng.normal(0, 0.8, n), 1)
    data = tmp_path / "two.csv"
    rows = "".join(f"{int(p)},{float(x)!r},{float(z)!r}\n" for p, x, z in zip(y, a, b, strict=True))
    data.write_text("label,a,b\n" + rows)
    script = tmp_path / "exact.R"
    script.write_text(EXACT_SCRIPT)
    done = subprocess.run(
        ["Rscript", str(script), str(data)], capture_output=True, text=True, check=True
    )
    proc = {
        w[0]: [float(v) for v in w[1:]] for w in (ln.split() for ln in done.stdout.splitlines())
    }
    r = tl.report(y.tolist(), a.tolist())
    sweep = r.analysis.sweep
    P, N = float(sweep.positives), float(sweep.negatives)

    def point(k: int) -> tuple[float, float]:
        return float(sweep.tp[k]) / P, 1 - float(sweep.fp[k]) / N

    corners = sorted(point(int(k)) for k in r.analysis.curves.local_maxima)
    want = sorted(zip(proc["lm_se"], proc["lm_sp"], strict=True))
    assert np.allclose(corners, want, atol=1e-12)
    for goal, name in (("min topleft", "topleft"), ("max youden cost=2 prevalence=0.3", "youden")):
        chosen = tl.report(y.tolist(), a.tolist(), goal=goal).goal
        assert chosen is not None and chosen.index is not None
        se, sp = point(chosen.index)
        best = list(zip(proc[f"{name}_se"], proc[f"{name}_sp"], strict=True))
        assert any(abs(se - x) < 1e-12 and abs(sp - z) < 1e-12 for x, z in best), (se, sp, best)
    x = tl.report(y.tolist(), {"a": a.tolist(), "b": b.tolist()}).to_dict()["comparison"][0]
    auc = x["auc_difference"]
    assert auc["var"]["a"] == pytest.approx(proc["var"][0], rel=1e-9)
    assert auc["var"]["b"] == pytest.approx(proc["var"][1], rel=1e-9)
    assert auc["cov"] == pytest.approx(proc["var"][2], rel=1e-9, abs=1e-15)
    interval = r.to_dict()["roc"]["auc"]["interval"]
    assert (interval["low"], interval["high"]) == pytest.approx(proc["ci_auc"], abs=1e-9)
    booted = tl.report(
        y.tolist(),
        a.tolist(),
        ci_se=[0.8, 0.9],
        ci_sp=0.8,
        ci_thresholds=0.5,
        bootstrap=2000,
        seed=seed,
    ).to_dict()["roc"]
    step = 3 / min(P, N) + 0.02
    sp_interval = booted["ci_sp"][0]["specificity"]["interval"]
    assert [sp_interval["low"], sp_interval["high"]] == pytest.approx(proc["ci_sp"], abs=step)
    auc_interval = booted["auc_bootstrap"]["interval"]
    assert [auc_interval["low"], auc_interval["high"]] == pytest.approx(
        proc["ci_auc_boot"], abs=0.02
    )
    for i, row in enumerate(booted["ci_se"]):
        got = row["sensitivity"]["interval"]
        assert got["low"] == pytest.approx(proc["ci_se_low"][i], abs=step)
        assert got["high"] == pytest.approx(proc["ci_se_high"][i], abs=step)
    at = booted["ci_thresholds"][0]
    ends = [at["sensitivity"]["interval"][k] for k in ("low", "high")]
    ends += [at["specificity"]["interval"][k] for k in ("low", "high")]
    assert ends == pytest.approx(proc["ci_thr"], abs=step)
