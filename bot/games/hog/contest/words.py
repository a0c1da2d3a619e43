"""A contest's results in words and as JSON: the same content in Discord, the terminal and scripts."""

from __future__ import annotations

import json

from bot.games.hog.contest.arena import Results
from hog_core.contest import WIN_ABOVE, Standing

HEADER = f"{'Place':>5}  {'Entry':<32} {'Wins':>4} {'Losses':>6}  {'vs perfect':>10}  {'Exploitable':>11}"


def standing_line(s: Standing) -> str:
    name = f"{s.name} *" if s.reference else s.name
    return f"{s.place:>5}  {name:<32} {s.wins:>4} {s.losses:>6}  {s.vs_perfect:>10.4f}  {s.exploitability:>11.4f}"


def summary(results: Results) -> str:
    entries, aside = len(results.entries), len(results.set_aside)
    left_out = f" ({aside} stored entr{'y' if aside == 1 else 'ies'} set aside: unreadable)" if aside else ""
    return (
        f"{results.contest.title}: {entries} entr{'y' if entries == 1 else 'ies'}{left_out} and "
        f"{len(results.names) - entries} reference entries (marked *), each against each, exactly"
    )


def standings_text(results: Results) -> str:
    return "\n".join([summary(results), "", HEADER, *(standing_line(s) for s in results.standings)])


def standings_json(results: Results) -> str:
    return json.dumps(
        [
            {
                "name": s.name,
                "wins": s.wins,
                "losses": s.losses,
                "place": s.place,
                "reference": s.reference,
                "vs_perfect": s.vs_perfect,
                "exploitability": s.exploitability,
            }
            for s in results.standings
        ],
        indent=1,
    )


def outcome(value: float) -> str:
    if value > WIN_ABOVE:
        return "win"
    return "loss" if value < 1 - WIN_ABOVE else "tie (a loss for both)"


def placed(s: Standing) -> str:
    return (
        f"place {s.place} ({s.wins} win{'s' if s.wins != 1 else ''}, {s.losses} loss{'es' if s.losses != 1 else ''}); "
        f"against perfect {s.vs_perfect:.4f}; the best reply to it wins {s.exploitability:.4f}"
    )


def record_text(results: Results, name: str) -> str:
    s = results.standing(name)
    assert s is not None
    kind = "reference entry" if s.reference else "entry"
    lines = [f"{name} ({kind}) in the {results.contest.title}: {placed(s)}", ""]
    lines += [f"  vs {other:<32} {value:.4f}  {outcome(value)}" for other, value in results.record(name).items()]
    return "\n".join(lines)


def record_json(results: Results, name: str) -> str:
    return json.dumps({"name": name, "record": results.record(name)}, indent=1)


def matrix_text(results: Results, top: int) -> str:
    shown = [s.name for s in results.standings[:top]]
    index = [results.names.index(n) for n in shown]
    lines = [f"{results.contest.title}: row's value against column", ""]
    lines.append(" " * 36 + "".join(f"{n + 1:>6}" for n in range(len(shown))))
    for n, i in enumerate(index):
        cells = "".join("     -" if i == j else f"{results.values[i, j]:>6.3f}" for j in index)
        lines.append(f"{n + 1:>3}. {shown[n][:30]:<31}{cells}")
    return "\n".join(lines)
