"""Several classes: decisions by argmax, the k×k matrix, per-class metrics and their
macro, weighted and micro averages, and one-vs-rest ranking summaries."""
