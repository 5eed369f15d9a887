"""A session as the command line opens it: ``threshold-lab ARGV...`` parsed by the
explorer's parser and opened by core (:func:`open_session`), as tests need it."""

from __future__ import annotations

from collections.abc import Sequence

from threshold_lab.core.session.opening import Opened, open_session
from threshold_lab.tui.cli.explore import parser, request_of


def opened(argv: Sequence[str]) -> Opened:
    """The session (and its first sentence) the explorer would open on ``argv``."""
    return open_session(request_of(parser().parse_args(list(argv))))
