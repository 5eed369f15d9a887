"""A session as a front end opens it (core's :class:`Opened`)."""

from __future__ import annotations

from threshold_lab.core.session.opening import Opened

__all__ = ["Opened"]
