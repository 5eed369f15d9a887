"""Several models on the same examples: each model's analysis, and for each pair the
paired DeLong test of their AUCs, their AP difference, whether the two summaries rank
them in opposite orders, and McNemar's exact test of their decisions."""
