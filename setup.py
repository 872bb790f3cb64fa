"""Packaging that pyproject.toml cannot say: the built-in strategies stay in the top-level
``strategies/`` folder (the project's layout) but install as ``simcards_strategies``, so that
installing simcards never puts a package with the generic name ``strategies`` into
site-packages."""
from setuptools import find_packages, setup

STRATEGIES = "simcards_strategies"

setup(
    packages=find_packages(include=["simcards", "simcards.*"])
    + [STRATEGIES] + [f"{STRATEGIES}.{p}" for p in find_packages("strategies")],
    package_dir={STRATEGIES: "strategies"},
)
