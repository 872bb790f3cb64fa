"""The collapsed sections at the page's end: the experiment as played, the methods, a glossary
and how to reproduce the report."""
from __future__ import annotations

from simcards.report.analysis import Results
from simcards.report.experiment import MAIN
from simcards.report.page import Section


def _overview(run, res: Results, config: dict) -> Section:
    exp = run.exp
    s = Section("The experiment", "experiment", collapsed=True)
    if exp.description:
        s.p(exp.description)
    changed = {k: v for k, v in exp.resolved_rules.items() if k in exp.rules}
    s.p(f"Game: {exp.spec.title} ({exp.spec.name}). Seed {exp.seed}. Player counts: "
        f"{', '.join(map(str, exp.players))}. Strategies: {', '.join(exp.strategies)}. "
        f"Rule options set by the experiment: "
        f"{', '.join(f'{k}={v}' for k, v in changed.items()) or 'none (every option at its default)'}; "
        "every option's resolved value is in config.json.")
    rows = []
    for cell in exp.cells:
        rows.append([cell.part, "" if cell.part == MAIN else exp.sweep_label(cell.sweep_value),
                     cell.players, len(cell.lineups), sum(cell.mirror), f"{run.games[cell.id]:,}",
                     f"{run.games[cell.id] * len(cell.lineups):,}"])
    s.table(["part", "rule", "players", "line-ups", "of which mirror", "games per line-up", "games"], rows)
    total = config["total_games"]
    timings = config["timings_s"]
    parts = [f"{k} {v:.1f} s" for k, v in timings.items() if k not in ("play", "compile", "analysis", "plots")]
    text = (f"{total:,} games in all. Time: games {timings['play']:.1f} s without compiling"
            + (f" ({', '.join(parts)})" if parts else "")
            + f", compiling or loading the kernels {timings.get('compile', 0.0):.1f} s, the report "
            f"{timings['analysis'] + timings['plots']:.1f} s (analysis {timings['analysis']:.1f} s, plots "
            f"{timings['plots']:.1f} s); simcards {config['simcards_version']}.")
    if run.precision is not None:
        worst = res.intervals["half_width"].max() if len(res.intervals) else float("nan")
        if run.precision_met:
            text += (f" Target precision {run.precision}: batches were added until every interval on the "
                     f"probability scale had half-width at most {run.precision} (largest now {worst:.4f}); "
                     f"that took {total:,} games ({max(b['round'] for b in run.batches)} rounds of batches; "
                     "config.json lists every batch).")
        else:
            cap = (f"the cap of {exp.max_minutes:g} minutes of play (max_minutes)"
                   if getattr(run, "precision_stop", "max_games") == "max_minutes"
                   else f"the cap of {exp.max_games:,} games per line-up")
            text += (f" Target precision {run.precision} NOT reached: {cap} stopped it; the widest interval has "
                     f"half-width {worst:.4f}.")
    if "unfinished" in run.frame:
        unfinished = int(run.frame.loc[run.frame["unfinished"].astype(bool), ["lineup", "game"]]
                         .drop_duplicates().shape[0])
        text += f" {unfinished:,} games reached the game's cap and count as games without a winner."
    s.p(text)
    s.p("Line-ups: 'mirror' line-ups seat the same strategy everywhere (they measure seats and cards); "
        "a pool is played as a tournament balanced over seats; every line-up of a row plays the same "
        "game indices with the same seed, so they are dealt the same games.")
    return s


def _methods() -> Section:
    s = Section("Methods", "methods", collapsed=True)
    s.p("The deal is the unit: every line-up of a cell plays the same game indices with the same seed, so "
        "they are dealt the same games (common random numbers), and every standard error treats a deal's games "
        "together. Intervals are 95%: t intervals over deal means for win rates, lengths and paired differences; "
        "card effects from least squares with standard errors clustered by deal; strengths from a bootstrap over "
        "deals. Where many tests are made at once, p-values are corrected: Holm over the strategy pairs and a "
        "sweep, Benjamini-Hochberg over the cards and a grid. Intervals are not corrected: each section says so.")
    return s


GLOSSARY = [
    ("fair share", "the win rate every seat would have if seats did not matter: 1 in n at n players."),
    ("edge, points", "a win rate minus its fair share, in percentage points: +6.4 means 6.4% more of the games."),
    ("tolerance", "how far off its fair share a seat may win and still count as fair."),
    ("fair / unfair / undecided", "every seat's interval inside the tolerance / some seat's wholly outside it / "
                                  "neither yet: more deals are needed."),
    ("seat 0", "the seat that plays first; seat 1 plays second, and so on."),
    ("played by", "a line-up where every seat plays the same strategy (a level of play), so seats differ only "
                  "by their place."),
    ("deal", "one shuffled game start; every line-up plays the same deals, and a deal is the unit of every "
             "interval."),
    ("95% interval [a, b]", "the range that holds the true value in 95 of 100 such experiments."),
    ("real effect / significant", "unlikely to be chance after correcting for the many comparisons on the page."),
    ("log-odds edge", "log of the odds of winning over the odds of a fair share: 0 luck only, +1 odds ×2.7, "
                      "+2 odds ×7.4."),
    ("strength", "a strategy's rating on a log scale: ahead by d, it beats the other in 1/(1+e^-d) of meetings."),
    ("line-up", "the strategies in each seat of a game, in seat order."),
    ("oracle", "the search player with every hand and the stock open: the most a player could win from "
               "seeing the hidden cards, the information ceiling."),
    ("relative skill", "the searching player's log-odds edge over random as a share of the oracle's (Dreef, "
                       "Borm and van der Genugten): 1 when seeing the cards adds nothing."),
]


def _glossary() -> Section:
    s = Section("Glossary", "glossary", collapsed=True)
    s.table(["term", "meaning"], [[t, m] for t, m in GLOSSARY])
    return s


def _reproduce(config: dict) -> Section:
    s = Section("Reproduce", "reproduce", collapsed=True)
    s.p(f"Command: {config['regenerate']} (the same command gives the same games for any number of "
        "threads). Files: results.parquet (one row per game and seat: cell, players, lineup, game, seat, "
        "strategy, win_share, rank and the game's result columns), config.json (the experiment as "
        "resolved: every rule option, line-ups, seed, game ranges, batches, versions, timings), summary.json "
        "(one record per estimate, for `simcards report --compare A B`).")
    return s
