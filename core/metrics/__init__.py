"""Single-threshold numbers: the Metric type (value, reason, exact fraction), confusion counts,
the threshold metrics and the probability metrics.
"""
