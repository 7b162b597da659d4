"""Benchmarks and the seeded corpus of hands they (and the regression digest test) use."""
