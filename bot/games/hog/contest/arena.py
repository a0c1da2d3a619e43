"""A contest's results: every pair of entries (and reference entries) played exactly, and ranked.

Pair values are kept by the two tables' digests, so a new entry costs its own pairs only (one
against each other entry), and an entry submitted again with the same table costs nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import os
import sys
import zipfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import numpy.typing as npt

from bot.games.hog.contest.entries import Contest, Entries, Entry
from bot.games.hog.solutions import SolutionCache
from bot.platform.names import folded
from bot.platform.recent import Recent
from hog_core.contest import SIZE, Standing, Table, rank
from hog_core.effects import Swap
from hog_core.explorer import Compared, Explored, chances, compared, explored
from hog_core.kernel import Kernel
from hog_core.review import Reviewer
from hog_core.rulesets import RULE_SETS, RuleSet
from hog_core.solver import Policy, Solution, WinRate
from hog_core.strategies import always_roll, bacon_strategy, from_table, swap_strategy, tabulate
from hog_core.turn import Turn
from storage.errors import OPENING_ERRORS

if TYPE_CHECKING:
    from hog_core.pairs import Pairs

log = logging.getLogger(__name__)

PERFECT = "perfect"
RESULTS_KEPT = 64

Progress = Callable[[str, int, int], None]
"""Told how long work goes: what is being done, how much of it is done, of how much (0 of 0: a step
of unknown length). Called from the thread that does the work."""


def quiet(what: str, done: int, total: int) -> None:
    """Progress nobody watches."""


def swaps(rules: RuleSet) -> bool:
    """Whether rolling zero dice can swap the totals in ``rules`` (then ``swap`` is a baseline)."""
    return any(
        isinstance(effect, Swap)
        for c in range(SIZE)
        for o in range(SIZE)
        for effect in rules.resolve(Turn(cur=c, opp=o, k=0, outcomes=())).effects
    )


def references(kernel: Kernel, solution: Solution) -> dict[str, Policy]:
    """The reference entries of a rule set: the perfect strategy, always rolling 4 or 6, and the
    course's baselines (``bacon``; ``swap`` where rolling zero can swap)."""
    rules = kernel.rules
    found = {
        PERFECT: solution.moves,
        "always_roll(4)": tabulate(always_roll(4), kernel),
        "always_roll(6)": tabulate(always_roll(6), kernel),
        "bacon": tabulate(lambda s, o: bacon_strategy(s, o, rules=rules.id), kernel),
    }
    if swaps(rules):
        found["swap"] = tabulate(lambda s, o: swap_strategy(s, o, rules=rules.id), kernel)
    return found


def shared(
    pairs: Pairs,
    policies: Sequence[Policy],
    wanted: Sequence[tuple[int, int]],
    best: Sequence[bool] = (),
    threads: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[WinRate]:
    """``pairs.rates``, the pairs dealt among ``threads`` threads (the compiled sweep runs without the
    GIL), a few at a time so that ``progress`` hears how many are done as they are."""
    workers = max(1, min(threads, len(wanted)))
    step = min(len(wanted), 8 * workers)
    shares = [list(range(w, len(wanted), step)) for w in range(step)]
    found: list[WinRate | None] = [None] * len(wanted)
    done = 0

    def run(share: list[int]) -> list[WinRate]:
        return pairs.rates(policies, [wanted[i] for i in share], [best[i] for i in share] if best else ())

    with ThreadPoolExecutor(workers) as pool:
        for share, rates in zip(shares, pool.map(run, shares), strict=True):
            for i, rate in zip(share, rates, strict=True):
                found[i] = rate
            done += len(share)
            if progress is not None:
                progress(done)
    return [rate for rate in found if rate is not None]


def shelf_name(rules: RuleSet) -> str:
    return f"contest-{rules.id}-v{rules.version}-values.npz"


def digest(policy: Policy) -> bytes:
    return hashlib.blake2b(np.ascontiguousarray(policy).tobytes(), digest_size=16).digest()


@dataclass(frozen=True)
class Results:
    """A contest's standings, and the value of every entry against every other."""

    contest: Contest
    names: list[str]
    """The entries, then the reference entries."""
    values: npt.NDArray[np.float64]
    """``[i, j]``: entry i's value against entry j (the mean of its win chances over both seat orders)."""
    standings: list[Standing]
    entries: Mapping[str, Entry]
    tables: Mapping[str, Table] = field(repr=False)
    """Every entry's table, references included (the perfect one at the start of a game)."""
    set_aside: Mapping[int, str] = field(default_factory=dict)
    """Stored entries that cannot be read (by their place in the contest's log), and why: left out."""

    def find(self, name: str) -> str | None:
        """The entry called ``name``, whatever its case."""
        wanted = folded(name)
        return next((n for n in self.names if folded(n) == wanted), None)

    def standing(self, name: str) -> Standing | None:
        return next((s for s in self.standings if s.name == name), None)

    def record(self, name: str) -> dict[str, float]:
        """``name``'s value against every other entry, in the standings' order."""
        i = self.names.index(name)
        return {s.name: float(self.values[i, self.names.index(s.name)]) for s in self.standings if s.name != name}

    def place_of(self, entrant_id: str) -> Standing | None:
        entry = next((e for e in self.entries.values() if e.entrant_id == entrant_id), None)
        return None if entry is None else self.standing(entry.team)


class Arena:
    """One rule set's exact contest machinery: its kernel, its reference entries and the pair values
    computed so far. ``results`` is CPU work: the bot runs it off the event loop."""

    def __init__(self, rules: RuleSet, solution: Solution, threads: int | None = None) -> None:
        from hog_core.pairs import Pairs  # numba: ~70 MB and 0.3 s, paid by a process only once it runs a contest

        self.kernel = Kernel(rules, SIZE)
        self.pairs = Pairs(self.kernel)
        self.threads = threads or os.cpu_count() or 1
        self.references = references(self.kernel, solution)
        self._values: dict[tuple[bytes, bytes], float] = {}
        self._exploited: dict[bytes, float] = {}
        self.unsaved = False
        """Whether values were computed since ``packed`` was last called."""
        self.computed = 0
        """How many sweeps this arena has run (pairs and best responses)."""

    def packed(self) -> bytes:
        """The values computed so far, to keep on a shelf (read back by ``unpack``)."""
        out = io.BytesIO()
        pairs = np.frombuffer(b"".join(a + b for a, b in self._values), dtype=np.uint8).reshape(-1, 32)
        best = np.frombuffer(b"".join(self._exploited), dtype=np.uint8).reshape(-1, 16)
        np.savez(out, pairs=pairs, values=np.array(list(self._values.values())), best=best,
                 exploited=np.array(list(self._exploited.values())))  # fmt: skip
        self.unsaved = False
        return out.getvalue()

    def unpack(self, data: bytes) -> None:
        """Take the values a shelf kept (``packed``); damaged data is left out."""
        try:
            with np.load(io.BytesIO(data)) as kept:
                pairs, values, best, exploited = kept["pairs"], kept["values"], kept["best"], kept["exploited"]
        except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as error:
            log.warning("the contest's kept pair values cannot be read (%s): computing them again", error)
            return
        self._values.update({(bytes(k[:16]), bytes(k[16:])): float(v) for k, v in zip(pairs, values, strict=True)})
        self._exploited.update({bytes(k): float(v) for k, v in zip(best, exploited, strict=True)})

    def results(self, contest: Contest, entries: Mapping[str, Entry], progress: Progress = quiet) -> Results:
        policies = {team: from_table(entry.table, self.kernel) for team, entry in entries.items()}
        policies.update(self.references)
        names = list(policies)
        keys = [digest(policies[n]) for n in names]
        by_key = {k: policies[n] for n, k in zip(names, keys, strict=True)}
        order = list(by_key)
        at = {k: i for i, k in enumerate(order)}
        missing = [(a, b) for a in order for b in order if a < b and (a, b) not in self._values]
        unexploited = [k for k in dict.fromkeys(keys) if k not in self._exploited]
        sweeps = len(missing) + len(unexploited)
        playing = "every pair played exactly"
        if sweeps:
            progress(playing, 0, sweeps)
        rates = shared(
            self.pairs, [by_key[k] for k in order], [(at[a], at[b]) for a, b in missing], (), self.threads,
            lambda done: progress(playing, done, sweeps),
        )  # fmt: skip
        self._values.update({pair: rate.average for pair, rate in zip(missing, rates, strict=True)})
        self.unsaved |= bool(missing)
        self.computed += len(missing)
        found = shared(
            self.pairs,
            [by_key[k] for k in unexploited],
            [(i, i) for i in range(len(unexploited))],
            [True] * len(unexploited),
            self.threads,
            lambda done: progress("each entry's best response", len(missing) + done, sweeps),
        )
        self._exploited.update({k: rate.average for k, rate in zip(unexploited, found, strict=True)})
        self.unsaved |= bool(unexploited)
        self.computed += len(unexploited)
        values = np.full((len(names), len(names)), 0.5)
        for i, a in enumerate(keys):
            for j, b in enumerate(keys):
                if a < b:
                    values[i, j] = self._values[a, b]
                elif a > b:
                    values[i, j] = 1.0 - self._values[b, a]
        perfect = names.index(PERFECT)
        standings = rank(
            names,
            values,
            references=tuple(self.references),
            vs_perfect={n: float(values[i, perfect]) for i, n in enumerate(names)},
            exploitability={n: self._exploited[k] for n, k in zip(names, keys, strict=True)},
        )
        start = self.kernel.dims.index(0, False, False, False)
        tables = {team: entry.table for team, entry in entries.items()}
        tables.update({name: policy[start] for name, policy in self.references.items()})
        return Results(contest, names, values, standings, dict(entries), tables)


async def compiled() -> None:
    """The contest's sweep compiled in a child process, once per process, so that this one only loads
    it from numba's cache: compiling takes seconds with the GIL held, and a bot's event loop would
    stop for every game meanwhile. When the child cannot (no cache to write), this process compiles."""
    if Contests.compiled:
        return
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from hog_core.pairs import warm; warm()",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    _, said = await child.communicate()
    if child.returncode:
        log.warning("the contest's sweep could not be compiled apart: %s", said.decode(errors="replace")[-300:])
    Contests.compiled = True


class Contests:
    """Every contest of this bot: entries from the log, results computed once per change of entries."""

    compiled: ClassVar[bool] = False
    """Whether this process has had the contest's sweep compiled (``compiled()``)."""

    def __init__(self, entries: Entries, solutions: SolutionCache, threads: int | None = None) -> None:
        self.entries = entries
        self.solutions = solutions
        self.threads = threads or max(1, (os.cpu_count() or 1) - 1)
        """Threads a contest's pairs are shared among: by default every core but one, which the
        bot's event loop keeps for the players."""
        self._arenas: dict[str, Arena] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._chances: dict[str, npt.NDArray[np.float64]] = {}
        self._results: Recent[Contest, tuple[tuple[int, ...], Results]] = Recent(RESULTS_KEPT)
        """The latest contests' results (by rules and server): a page asked for every server there is
        keeps only the last ``RESULTS_KEPT``."""
        self._working: dict[Contest, asyncio.Task[Results]] = {}
        """The results being worked out for a reader who did not wait (``soon``)."""

    async def arena(self, rules: str, progress: Progress = quiet) -> Arena:
        """The rule set's arena, with the pair values kept on the solutions' shelf (computed by any
        process, before a restart too)."""
        async with self._locks.setdefault(rules, asyncio.Lock()):
            if rules not in self._arenas:
                if not Contests.compiled:
                    progress("compiling the exact sweep (once)", 0, 0)
                await compiled()
                rule_set = RULE_SETS[rules]
                progress(f"solving {rules} (once)", 0, 0)
                solution = await self.solutions.get(rule_set, SIZE)
                progress("tabulating the course's strategies", 0, 0)
                arena = await asyncio.to_thread(Arena, rule_set, solution, self.threads)
                try:
                    kept = await self.solutions.shelf.read(shelf_name(rule_set))
                except OPENING_ERRORS as error:
                    log.warning("the contest's kept pair values cannot be read (%s)", error)
                    kept = None
                if kept is not None:
                    await asyncio.to_thread(arena.unpack, kept)
                self._arenas[rules] = arena
            return self._arenas[rules]

    async def soon(self, contest: Contest) -> Results | None:
        """The contest's results if they are ready (worked out since its entries last changed); else
        ``None`` at once, with the work begun in the background (a minute of CPU the first time a rule
        set is asked for), so a web reader is answered "being worked out" within a second."""
        entries = await self.entries.of(contest)
        kept = self._results.get(contest)
        if kept is not None and kept[0] == tuple(e.version for e in entries.values()):
            return kept[1]
        if contest not in self._working:
            task = asyncio.create_task(self.results(contest), name=f"contest-results-{contest.rules}")
            self._working[contest] = task
            task.add_done_callback(lambda done: self._finished(contest, done))
        return None

    async def stop(self) -> None:
        """Stop the work begun for readers who did not wait (the web front is closing)."""
        working = list(self._working.values())
        for task in working:
            task.cancel()
        await asyncio.gather(*working, return_exceptions=True)

    def _finished(self, contest: Contest, task: asyncio.Task[Results]) -> None:
        del self._working[contest]
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("the %s contest's results could not be worked out: %s", contest.rules, error, exc_info=error)

    async def results(self, contest: Contest, progress: Progress = quiet) -> Results:
        """The contest's results as its log stands now (computed off the event loop when it changed);
        ``progress`` hears of each step of the work, the first time a long one (about 20 s here)."""
        entries = await self.entries.of(contest)
        arena = await self.arena(contest.rules, progress)
        shape = tuple(e.version for e in entries.values())
        async with self._locks[contest.rules]:
            kept = self._results.get(contest)
            if kept is not None and kept[0] == shape:
                return kept[1]
            results = await asyncio.to_thread(arena.results, contest, entries, progress)
            results = replace(results, set_aside=self.entries.set_aside(contest))
            self._results.put(contest, (shape, results))
            if arena.unsaved:
                try:
                    await self.solutions.shelf.write(shelf_name(RULE_SETS[contest.rules]), arena.packed())
                except OPENING_ERRORS as error:
                    log.warning("the contest's pair values cannot be kept (%s): they stay in memory", error)
            return results

    async def explored(self, results: Results, name: str, other: str | None = None) -> tuple[Explored, Compared | None]:
        """``name``'s table against perfect play, cell by cell, exactly (and beside ``other``'s); each
        rule set's chances worked out once, off the event loop (a quarter of a second)."""
        rules = results.contest.rules
        if rules not in self._chances:
            arena = await self.arena(rules)
            solution = await self.solutions.get(RULE_SETS[rules], SIZE)
            self._chances[rules] = await asyncio.to_thread(lambda: chances(Reviewer(arena.kernel, solution)))
        values = self._chances[rules]
        first = explored(name, results.tables[name], values)
        if other is None:
            return first, None
        second = explored(other, results.tables[other], values)
        return first, compared(first, second, (results.tables[name], results.tables[other]))
