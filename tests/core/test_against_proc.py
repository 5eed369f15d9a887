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
r <- roc(d$label, d$score, quiet = TRUE, direction = "<", levels = c(0, 1))
for (m in c("binormal", "density", "fitdistr")) {
  s <- smooth(r, method = m)
  say(paste("auc", m), as.numeric(auc(s)))
  say(paste("sp", m), s$specificities)
  say(paste("se", m), s$sensitivities)
}
say("coords_se", coords(r, c(0.8, 0.9), input = "specificity", ret = "sensitivity")[, 1])
say("coords_sp", coords(r, c(0.5, 0.9), input = "sensitivity", ret = "specificity")[, 1])
say("power", power.roc.test(auc = 0.68, ncases = 37, ncontrols = 55)$power)
say("ncases", power.roc.test(auc = 0.7, power = 0.9, kappa = 2)$ncases)
r2 <- roc(d$label, d$other, quiet = TRUE, direction = "<", levels = c(0, 1))
say("two_power", power.roc.test(r, r2)$power)
say("two_ncases", power.roc.test(r, r2, power = 0.8)$ncases)
p <- list(A1 = 1.7, B1 = 0.9, A2 = 1.2, B2 = 1.1, rn = 0.3, ra = 0.5, delta = 0.06)
say("param_ncases", power.roc.test(p, power = 0.85, kappa = 1.5)$ncases)
p$FPR11 <- 0; p$FPR12 <- 0.3; p$FPR21 <- 0; p$FPR22 <- 0.3
say("partial_power", power.roc.test(p, ncases = 150, ncontrols = 200)$power)
"""


def _run(tmp_path: Path, y: np.ndarray, s: np.ndarray, other: np.ndarray) -> dict[str, list[float]]:
    data = tmp_path / "rows.csv"
    lines = "".join(
        f"{int(a)},{float(b)!r},{float(c)!r}\n" for a, b, c in zip(y, s, other, strict=True)
    )
    data.write_text("label,score,other\n" + lines)
    script = tmp_path / "check.R"
    script.write_text(SCRIPT)
    done = subprocess.run(
        ["Rscript", str(script), str(data)], capture_output=True, text=True, check=True
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
    proc = _run(tmp_path, y, s, other)
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
    assert tl.power(auc=0.68, cases=37, controls=55).power == pytest.approx(
        proc["power"][0], abs=1e-6
    )
    solved = tl.power(auc=0.7, power=0.9, kappa=2)
    assert solved.cases == int(np.ceil(proc["ncases"][0] - 1e-9))
    two = tmp_path / "two.csv"
    two.write_text(
        "label,score_a,score_b\n"
        + "".join(
            f"{int(a)},{float(b)!r},{float(c)!r}\n" for a, b, c in zip(y, s, other, strict=True)
        )
    )
    assert tl.power(from_file=str(two)).power == pytest.approx(proc["two_power"][0], abs=1e-6)
    sized = tl.power(from_file=str(two), power=0.8)
    assert sized.cases == int(np.ceil(proc["two_ncases"][0] - 1e-9))
    p: dict[str, Any] = {
        "a1": 1.7,
        "b1": 0.9,
        "a2": 1.2,
        "b2": 1.1,
        "rn": 0.3,
        "ra": 0.5,
        "delta": 0.06,
    }
    sized = tl.power(**p, power=0.85, kappa=1.5)
    assert sized.cases == int(np.ceil(proc["param_ncases"][0] - 1e-9))
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
        test=["bootstrap", "venkatraman", "sensitivity"],
        at_specificity=0.8,
        **common,
    ).to_dict()["comparison"][0]
    partial = tl.report(
        y.tolist(), scores, test="bootstrap", partial_auc="fpr:0-0.2", bootstrap=2000, seed=seed
    ).to_dict()["comparison"][0]
    unpaired = tl.report(
        y.tolist(), scores, test="bootstrap", unpaired=True, bootstrap=2000, seed=seed
    ).to_dict()["comparison"][0]
    ours = {
        "bootstrap": paired["auc_difference"]["bootstrap"]["p_value"],
        "venkatraman": paired["auc_difference"]["venkatraman"]["p_value"],
        "sensitivity": paired["sensitivity_difference"]["bootstrap"]["p_value"],
        "unpaired": unpaired["auc_difference"]["bootstrap"]["p_value"],
        "partial": partial["partial_auc_difference"][0]["bootstrap"]["p_value"],
    }
    for name, p in proc.items():
        se = np.sqrt(max(p, 0.01) * (1 - min(p, 0.99)) / 2000)
        assert abs(ours[name] - p) <= 4 * np.sqrt(2) * se, (name, ours[name], p)
