"""What the scores mean: calibration (reliability bins, ECE, MCE, the Brier
decomposition), monotone score transforms, and gains, lift and KS."""
