"""A session as a front end opens it: the session, and what the front end says first."""

from __future__ import annotations

from dataclasses import dataclass

from threshold_lab.core.session.session import Session


@dataclass(frozen=True)
class Opened:
    """A session as opened, and its first sentence (what ``--transform`` did, or "")."""

    session: Session
    opening: str = ""
