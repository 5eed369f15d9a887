"""Everything across thresholds: the tie-grouped sweep, ROC and PR summaries, curve reduction
and score-axis bins.
"""
