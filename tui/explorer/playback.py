"""Sweep playback: the threshold walks down the tie groups on a timer."""

from __future__ import annotations

from textual.timer import Timer
from threshold_lab.core.text.sentences import step_sentence
from threshold_lab.tui.state.host import Host

#: Playback speeds offered by + and - (seconds per tie group).
PLAY_SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)


class Playback:
    """Plays the sweep from above all scores down, one tie group per tick."""

    def __init__(self, host: Host, seconds: float) -> None:
        self.host = host
        #: Seconds per tie group.
        self.seconds = seconds
        self._timer: Timer | None = None
        self._paused = False

    @property
    def playing(self) -> bool:
        return self._timer is not None

    def toggle(self) -> None:
        """Play the sweep from above all scores down, or pause; after a pause, resume
        where it stopped."""
        if self._timer is not None:
            self.stop()
            self._paused = True
            self.host.say("Playback paused. n / N step; p resumes.")
            return
        session = self.host.session
        if session.threshold_held is not None:
            self.host.say(f"Refused: {session.threshold_held}.")
            return
        resuming = self._paused and session.analysis.point < session.analysis.sweep.size - 1
        if not resuming:
            self.host.run(lambda: session.set_threshold(None))
        self._timer = self.host.every(self.seconds, self._tick)
        self.host.say(
            "Playback resumed; p pauses."
            if resuming
            else "Playing the sweep from above all scores down; p pauses."
        )

    def stop(self) -> None:
        """Stop playing; the next p starts again from above all."""
        self._paused = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def speed(self, direction: int) -> None:
        """Play faster (-1) or slower (1): the next speed on the list."""
        slower = [v for v in PLAY_SPEEDS if v > self.seconds]
        faster = [v for v in PLAY_SPEEDS if v < self.seconds]
        if direction > 0 and slower:
            self.seconds = slower[0]
        elif direction < 0 and faster:
            self.seconds = faster[-1]
        if self._timer is not None:  # apply it now, keeping the place in the sweep
            self._timer.stop()
            self._timer = self.host.every(self.seconds, self._tick)
        self.host.say(f"Playback: {self.seconds:g} s per tie group (+ faster, - slower).")

    def step(self, delta: int) -> None:
        """One tie group down (1) or up (-1), described in a sentence."""
        update = self.host.run(lambda: self.host.session.group(delta))
        if update is not None:
            self.host.say(step_sentence(update.analysis))

    def _tick(self) -> None:
        if self.host.session.threshold_held is not None:  # O pressed while playing
            self.stop()
            return
        a = self.host.session.analysis
        if a.point >= a.sweep.size - 1:
            self.stop()
            self.host.say("Playback finished at the lowest score.")
            return
        self.step(1)
