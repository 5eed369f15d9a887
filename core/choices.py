"""The words some options choose from, and a default, kept apart from what they name.

Help and the option table list them; importing the figures, the group thresholds or
the score transforms just to list their names would load those modules on every
command. Each module that acts on them imports them from here.
"""

from __future__ import annotations

from fractions import Fraction

#: The charts a figure draws (``plot --chart``).
CHARTS = (
    "roc",
    "pr",
    "det",
    "decision",
    "reliability",
    "gains",
    "cost",
    "metrics",
    "risk-coverage",
)

#: The fairness criteria a group's thresholds are chosen for (``--group-thresholds``).
CRITERIA = (
    "demographic_parity",
    "equal_opportunity",
    "equalized_odds",
    "predictive_parity",
    "same_goal",
)
#: The default tolerance on the groups' gap (``--tolerance``).
TOLERANCE = Fraction(1, 100)

#: The score transforms, as a user names them (``affine:A,B`` takes its two numbers).
TRANSFORMS = ("square", "sqrt", "log", "logit", "expit", "rank", "affine:A,B")
