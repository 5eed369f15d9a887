"""Widgets of the explorer. They render an Analysis; none computes a metric."""
