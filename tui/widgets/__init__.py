"""Widgets of the explorer. They draw the frame the main screen hands down
(:mod:`threshold_lab.tui.state.frame`); none computes a statistic."""
