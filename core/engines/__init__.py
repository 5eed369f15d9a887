"""Exact aggregation of evaluation sets too large for one process.

``threshold-lab aggregate`` reduces rows (or shards already aggregated) to one
row per distinct score, ``score, positives, negatives``, on an engine that
works out of core (DuckDB, embedded) or on a cluster (Spark). Every engine runs
the same plan (:mod:`threshold_lab.core.engines.plan`): the label rules of the loaders,
scores grouped exactly as stored, and, when asked, bounded quantisation
(:mod:`threshold_lab.core.data.quantise`) whose effect on AUC is recorded in the file.

The engines are optional (the ``[engines]`` and ``[spark]`` extras) and imported
only when asked for.
"""
