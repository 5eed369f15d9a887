"""Plain mode's commands that decide: a goal, a deployment prevalence, the decision
curve's net benefit and useful range."""

from __future__ import annotations

from threshold_lab.core.decide.band import band_lines, parse_band_goal, solve_band
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.net_benefit import parse_pt
from threshold_lab.core.decide.solve import decision_sentence
from threshold_lab.core.decide.stability import (
    parse_fold_count,
    parse_within,
    stability,
    stability_lines,
)
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.intervals.power import parse_power_number
from threshold_lab.core.report.power import PARAMETERS, power_of_two, power_with
from threshold_lab.core.report.table import OPTIONS
from threshold_lab.core.text.decision import (
    decision_curve_lines,
    net_benefit_sentence,
    useful_sentence,
)
from threshold_lab.tui.plain.speaker import Speaker


class Deciding(Speaker):
    """The commands of a goal, a prevalence and the decision curve."""

    def cmd_goal(self, args: list[str]) -> None:
        if not args:
            d = self.session.current().deciding
            if d is None or d.goal is None:
                self.say("No goal is set; for example: goal max precision where recall >= 0.9")
            elif d.decision is None:
                self.say(f"Goal {d.goal.text()}: {d.problem}.")
            else:
                self.say(decision_sentence(d.decision, self.analysis.sweep))
            return
        self._said(self.session.set_goal(" ".join(args)))

    def cmd_band(self, args: list[str]) -> None:
        """``band GOAL``: the review band the goal asks for, on the rows as they are;
        ``band`` alone: the band in force."""
        if not args:
            review = self.session.current().review
            if review is not None:  # the band in force, as the status says it
                self.say(review.sentence())
                return
            raise InputError(
                "no band is set: say band and its goal, as band max coverage where "
                "precision >= 0.99 and npv >= 0.995, or band min cost fp=10 fn=50 review=1"
            )
        if len(args) == 1 and args[0].lower() in ("off", "none", "clear"):
            self.say(self.session.set_band("off").message)
            return
        if len(args) == 1 and args[0].lower() in ("up", "down"):
            # The reject threshold a tie group up (more rejected) or down (fewer).
            update = self.session.move_band_low(-1 if args[0].lower() == "up" else 1)
            self.say(update.message)  # the threshold stays: the status would repeat
            return
        goal = parse_band_goal(" ".join(args))
        a = self.analysis
        self.say(*band_lines(solve_band(a.sweep, goal, self.session.options.confidence), a.sweep))
        # The band is kept: the threshold moves to its accept threshold, and status says it.
        self.say(self.status_of(self.session.set_band(goal)))

    def _power(self, args: list[str]) -> list[str]:
        """``power [auc A] [cases N1] ...``: pROC's power.roc.test for one ROC curve,
        the AUC and the controls per case these rows' unless given; ``power models
        ...``: the shown model's AUC against the next one's (two paired curves); with
        ``a1 b1 a2 b2 rn ra delta``, two binormal curves from parameters."""
        two = bool(args) and args[0].lower() == "models"
        if two:
            args = args[1:]
        words = (
            "auc",
            "cases",
            "controls",
            "kappa",
            "sig_level",
            "power",
            *PARAMETERS,
            "method",
            "partial",
        )
        given: dict[str, object] = {}
        if len(args) % 2:
            raise InputError(
                "say power and pairs of a word and a number: auc 0.8, cases 40, controls 60, "
                "kappa 1.5, sig_level 0.05, power 0.9 (power models ...: two models' AUCs; "
                "a1, b1, a2, b2, rn, ra, delta: two binormal curves)"
            )
        for word, value in zip(args[::2], args[1::2], strict=True):
            key = word.lower().replace("-", "_").replace(".", "_")
            if key not in words:
                raise InputError(f"power: {quoted(word)} is not one of {', '.join(words)}")
            if key == "method":  # the variances of two models' AUCs from their rows
                given["power_method"] = OPTIONS["power_method"].parse(value)  # type: ignore[misc]
            elif key == "partial":  # two curves' partial AUC, as fpr:0-0.1
                given["partial_auc"] = OPTIONS["partial_auc"].parse(value)  # type: ignore[misc]
            else:
                given[key] = parse_power_number(value)
        if two:
            pair = self.session.model_pair()
            if pair is None:
                raise InputError(
                    "power models compares two models of the same rows: open a file with "
                    "several score columns (score_A, score_B, ...)"
                )
            (name, one), (other_name, other) = pair
            lines = power_of_two(given, one, other).lines()
            return [f"{lines[0][:-1]}, {name} against {other_name}:", *lines[1:]]
        if any(p in given for p in PARAMETERS):
            return power_of_two(given).lines()
        a = self.analysis
        rows = (a.curves.summaries.roc_auc.value, float(a.data.positives), float(a.data.negatives))
        return power_with(given, rows).lines()

    def cmd_stability(self, args: list[str]) -> None:
        """``stability [GOAL] [within E [in Q]]``: the goal over the folds."""
        folds = self.session.fold_sweeps()
        if not folds:
            raise InputError(
                "stability needs folds: open the file with --fold COL (the column naming "
                "each row's fold)"
            )
        words = [w.lower() for w in args]
        within = at_least = None
        if "in" in words and "within" not in words:
            raise InputError(
                "in Q counts folds for within: say stability GOAL within E in Q (a threshold "
                "within E of the optimum on at least Q folds)"
            )
        if "within" in words:
            i = words.index("within")
            rest, args = args[i + 1 :], args[:i]
            if not rest or len(rest) not in (1, 3) or (len(rest) == 3 and rest[1].lower() != "in"):
                raise InputError("say within E, or within E in Q (Q: a number of folds)")
            within = parse_within(rest[0])
            at_least = parse_fold_count(rest[2]) if len(rest) == 3 else None
        d = self.session.current().deciding
        goal = parse_goal(" ".join(args)) if args else (None if d is None else d.goal)
        if goal is None:
            raise InputError("give a goal, as stability max f1 (or set one with goal GOAL)")
        s = stability(
            folds,
            goal,
            self.analysis.beta,
            within=within,
            at_least=at_least,
            cv_goal=goal,
            confidence=self.session.options.confidence,
        )
        self.say(*stability_lines(s, grid=False))

    def cmd_prevalence(self, args: list[str]) -> None:
        self._expect(args, 1, "prevalence P (0 < P < 1, such as 0.05 or 1/20), or prevalence off")
        self._said(self.session.set_prevalence(args[0]))

    def cmd_net_benefit(self, args: list[str]) -> None:
        """``net benefit``: the decision curve on the --pt grid; ``net benefit 0.2``: at
        one pt, its counts filled in."""
        if not args or args[0].lower() != "benefit":
            raise InputError("say net benefit, or net benefit 0.2 for one threshold probability")
        d = self.session.decision_curve()
        if d.reason is not None:
            raise InputError(f"net benefit is undefined: {d.reason}")
        if len(args) == 1:
            self.say(*decision_curve_lines(d, self.session.sure))
            return
        if len(args) > 2:
            raise InputError(
                f"net benefit takes one threshold probability, not {' '.join(args[1:])!r}"
            )
        try:
            (pt,) = parse_pt(args[1])
        except InputError:
            raise InputError(
                f"net benefit {args[1]}: give one threshold probability strictly "
                "between 0 and 1, like net benefit 0.2"
            ) from None
        one = self.session.decision_curve((pt,))
        self.say(net_benefit_sentence(one, one.grid[0], self.analysis.sweep))

    def cmd_useful_range(self, args: list[str]) -> None:
        """``useful range``: where acting on the model beats treating all and none."""
        if not args or args[0].lower() != "range" or len(args) > 1:
            raise InputError("say useful range")
        d = self.session.decision_curve()
        if d.reason is not None:
            raise InputError(f"net benefit is undefined: {d.reason}")
        self.say(useful_sentence(d)[0].upper() + useful_sentence(d)[1:] + ".")
