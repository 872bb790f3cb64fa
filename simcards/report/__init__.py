"""Experiments and balance reports: ``simcards report experiments/NAME.toml``.

``experiment`` loads and validates the TOML file, ``run`` plays it (common
random numbers, precision loop) and writes the folder, ``analysis`` holds every
statistic, ``plots`` the figures and ``render`` report.md and index.html.
"""
from __future__ import annotations


def run_experiment(*args, **kwargs):
    """See simcards.report.run.run_experiment (imported lazily: the CLI starts fast)."""
    from simcards.report.run import run_experiment as run
    return run(*args, **kwargs)


def load_experiment(path):
    from simcards.report.experiment import load_experiment as load
    return load(path)


__all__ = ["run_experiment", "load_experiment"]
