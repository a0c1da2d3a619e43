"""A contest's results in words and as JSON: the same content in Discord, the terminal and scripts."""

from __future__ import annotations

import json

from bot.games.hog.contest.arena import Results
from hog_core.contest import SIZE, WIN_ABOVE, Standing
from hog_core.explorer import Compared, Explored
from hog_core.puzzles import move_words

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
    places = [s.place for s in results.standings[: len(shown)]]  # as the standings give them, ties and all
    lines = [f"{results.contest.title}: row's value against column, each named by its place", ""]
    lines.append(" " * 36 + "".join(f"{place:>6}" for place in places))
    for n, i in enumerate(index):
        cells = "".join("     -" if i == j else f"{results.values[i, j]:>6.3f}" for j in index)
        mark = " *" if results.standings[n].reference else ""
        lines.append(f"{places[n]:>3}. {(shown[n][:28] + mark):<31}{cells}")
    return "\n".join(lines)


def explored_lines(e: Explored) -> list[str]:
    """``name``'s table against perfect play: how often it differs, what it gives away, its costliest cells."""
    over = f" (the best one move over the rules' cycle of {e.cycle} turns)" if e.cycle > 1 else ""
    lines = [
        f"{e.name} against perfect play{over}, each choice at the start of a turn, exactly: it differs in "
        f"{e.differing:,} of {SIZE * SIZE:,} positions and gives away {e.average * 100:.2f} points of chance "
        "a position on average."
    ]
    if e.worst:
        lines.append("The costliest (your score–the opponent's: the table's move → the best, chance given away):")
        lines += [
            f"  {c.score}–{c.opponent}: {move_words(c.move)} → {move_words(c.best)}, −{c.cost * 100:.1f} points"
            for c in e.worst
        ]
    return lines


def compared_line(c: Compared) -> str:
    return (
        f"{c.first.name} and {c.second.name} choose differently in {c.apart:,} positions: {c.first.name} is "
        f"nearer perfect play in {c.first_better:,} of them, {c.second.name} in {c.second_better:,}."
    )


def explored_text(e: Explored, c: Compared | None) -> str:
    lines = explored_lines(e)
    if c is not None:
        lines += ["", *explored_lines(c.second), "", compared_line(c)]
    return "\n".join(lines)


def explored_json(e: Explored, c: Compared | None) -> str:
    def one(x: Explored) -> dict[str, object]:
        worst = [
            {"score": w.score, "opponent": w.opponent, "move": w.move, "best": w.best, "cost": round(w.cost, 6)}
            for w in x.worst
        ]
        return {"name": x.name, "differing": x.differing, "average_cost": round(x.average, 6), "worst": worst}

    found: dict[str, object] = {"entry": one(e)}
    if c is not None:
        found |= {
            "other": one(c.second),
            "apart": c.apart,
            "entry_nearer": c.first_better,
            "other_nearer": c.second_better,
        }
    return json.dumps(found, indent=1)
