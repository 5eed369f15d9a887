"""What the explorer draws, prepared once per set of rows: reduced curves, the score
strip's bins, and the series and intervals the charts lay out."""
