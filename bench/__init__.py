"""Benchmarks and the seeded corpus of hands they (and the golden master, tests/golden.py) use."""
