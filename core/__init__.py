"""threshold-lab's engine: exact, tie-aware binary classification metrics.

Pure numpy. Nothing here imports textual or the ``tui`` package.
"""
