"""Plain mode's commands of several models and of groups: each model or group at
the threshold, the comparisons, per-group thresholds."""

from __future__ import annotations

from threshold_lab.core.errors import InputError
from threshold_lab.core.text.groups import group_sentence, groups_at_threshold
from threshold_lab.core.text.models import models_summary
from threshold_lab.tui.plain.speaker import Speaker


class Models(Speaker):
    """The commands of several models and of groups."""

    def _models(self) -> list[str]:
        s = self.session
        return models_summary(
            s.model_rows(),
            rows=s.data.n,
            threshold=s.threshold,
            group_by=None if s.paired else s.group_by,
            pooled="folds" if s.folds else ("groups" if s.pooled else None),
            own=s.shown.own,
            quantised=s.quantised,
        )

    def cmd_model(self, args: list[str]) -> None:
        self._expect(args, 1, "model NAME (models lists them)")
        self._said(self.session.set_model(args[0]))

    def _compare(self) -> list[str]:
        s = self.session
        if not s.models:
            return self._models()
        lines = []
        if s.dirty:
            lines.append("(The models as loaded: the edits to the rows shown are not included.)")
        for c in s.comparisons():
            lines += [line.strip() for line in c.detail_lines()]
        return lines

    def _groups(self) -> list[str]:
        """``groups``: each group at the threshold, then the gaps."""
        r, added = self.session.groups_report()
        c = r.contents
        assert c.group_column is not None
        lines = groups_at_threshold(c.group_column, c.groups, c.gaps, r.threshold, added)
        return [line.strip() for line in lines if line.strip()]

    def cmd_group_goal(self, args: list[str]) -> None:
        """``group-goal CRITERION [E]``: per-group thresholds, each group's its own."""
        if not args or len(args) > 2:
            raise InputError(
                "say group-goal CRITERION [E], such as group-goal equal_opportunity 0.05"
            )
        self._said(self.session.solve_group_goal(args[0], args[1] if len(args) > 1 else None))

    def cmd_group(self, args: list[str]) -> None:
        """``group NAME``: one group's counts and every metric with its formula."""
        r, _ = self.session.groups_report()
        names = [p.name for p in r.contents.groups]
        if not args:
            raise InputError(f"say group NAME; the groups are: {', '.join(names)}")
        name = " ".join(args)
        if name not in names:
            raise InputError(f"no group {name!r}; the groups are: {', '.join(names)}")
        part = r.contents.groups[names.index(name)]
        lines = [group_sentence(part)]
        lines += [m.formula for m in part.metrics().values() if m.value is not None]
        self.say(*lines)
