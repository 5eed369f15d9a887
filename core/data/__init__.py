"""Getting rows in: the Dataset, label rules, CSV/TSV/JSON/Parquet and aggregated loaders, row
names, sources and presets.
"""
