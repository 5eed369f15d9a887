"""The main screen's helpers: sweep playback, the demo tour and the bootstrap's worker,
which act on the screen through its Host (:mod:`threshold_lab.tui.state.host`), and
the explorer's keys as one list (help's order, the key line). They sit with the
screens: the main screen drives them, and they know no screen by name."""
