"""Several classes: decisions by argmax, the k×k matrix, per-class metrics and their
macro, weighted and micro averages, one-vs-rest ranking summaries, and Hand and Till's
one-vs-one AUC."""
