"""The layers stay honest (shared/DESIGN.md): the game cores are pure; storage knows no game, no
platform and no Discord; the platform and the generic front ends know no game but through the
registry; a game module runs without discord.py."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from bot.discord.buttons import GameButton
from bot.discord.history import HistoryButton
from bot.discord.leaderboard import LeaderboardButton
from bot.platform.registry import Games, installed_modules, load
from bot.platform.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
IMPURE = {"asyncio", "os", "io", "socket", "sqlite3", "aiosqlite", "time", "datetime", "random", "secrets", "pathlib"}
IMPURE |= {"discord", "aiohttp", "storage", "bot", "subprocess", "threading", "logging"}
# classic.py and course.py are the courses' front doors: fair dice and shuffles are their documented
# defaults when none are given. cucumber_core's __main__ is its command line: it prints, reads and times.
ALLOWED = {("hog_core/classic.py", "random"), ("cucumber_core/course.py", "random")}
ALLOWED |= {("cucumber_core/__main__.py", m) for m in ("time", "importlib", "pathlib", "os")}
CORES = sorted([*(ROOT / "hog_core").rglob("*.py"), *(ROOT / "cucumber_core").rglob("*.py")])


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", CORES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_game_cores_are_pure(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    bad = {m for m in imports(path) & IMPURE if (rel, m) not in ALLOWED}
    assert not bad, f"{rel} imports {sorted(bad)}"


GAMES = {"hog_core", "cucumber_core"}


def modules(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full dotted name."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", files("storage"), ids=lambda p: p.name)
def test_storage_knows_no_game_and_no_discord(path: Path) -> None:
    assert not imports(path) & {"discord", "bot", *GAMES}


GENERIC = [*files("bot/platform", "bot/discord"), ROOT / "bot" / "console.py"]


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_platform_knows_no_game_but_through_the_registry(path: Path) -> None:
    found = modules(path)
    assert not {m for m in found if m.split(".")[0] in GAMES or m.startswith("bot.games")}, sorted(found)


@pytest.mark.parametrize("path", files("bot/platform"), ids=lambda p: p.name)
def test_the_platform_knows_no_discord(path: Path) -> None:
    assert "discord" not in imports(path)


GAME_MODULES = [p for p in files("bot/games") if "discord" not in p.relative_to(ROOT / "bot" / "games").parts[1:-1]]


@pytest.mark.parametrize("path", GAME_MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_game_module_imports_no_discord_outside_its_discord_front(path: Path) -> None:
    found = modules(path)
    assert not {m for m in found if m.split(".")[0] == "discord" or m.startswith("bot.discord")}, sorted(found)


def test_every_game_module_loads_without_discord() -> None:
    """What the registry names, with everything it imports, runs where discord.py is absent."""
    check = (
        "import sys; from bot.platform.registry import Games; from bot.platform.settings import Settings; "
        "Games.load(Settings()); assert 'discord' not in sys.modules, sorted(m for m in sys.modules if 'discord' in m)"
    )
    done = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("path", CORES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_game_cores_know_no_other_game(path: Path) -> None:
    own = path.relative_to(ROOT).parts[0]
    assert not imports(path) & ({"hog_core", "cucumber_core"} - {own})


BOARD_BOOKS = {"shown_version", "board_shown", "boards_behind", "settle_boards", "place_board", "forget_board"}
"""The read models' record of where boards are and which version each shows: the platform's board
module (``bot.platform.boards``) keeps it; a front only draws and posts."""


def attributes(path: Path) -> set[str]:
    return {node.attr for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Attribute)}


FRONTS = [*files("bot/discord"), *(p for p in files("bot/games") if "discord" in p.parts), *files("examples")]


@pytest.mark.parametrize("path", FRONTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_front_decides_a_board_version(path: Path) -> None:
    """Which version a board shows, and when to show it again, is decided by ``bot.platform.boards``:
    no front reads or writes the board records, or a game's version in the store."""
    source = path.read_text()
    assert not attributes(path) & BOARD_BOOKS
    assert "store.version(" not in source and "store.load(" not in source and "views.board_message(" not in source


def test_the_platform_imports_no_game_and_storage_no_game() -> None:
    """The platform's modules name no game; the game modules are found by entry point."""
    platform_files = [*files("bot/platform"), ROOT / "bot" / "console.py", ROOT / "bot" / "cli.py"]
    for path in platform_files:
        found = modules(path)
        assert not {m for m in found if m.split(".")[0] in GAMES or m.startswith("bot.games")}, (path, sorted(found))
    for path in files("storage"):
        assert not imports(path) & {"bot", *GAMES}, path


@pytest.mark.parametrize(
    "path", [*files("bot/games"), *files("examples")], ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_a_game_front_is_given_a_table_not_the_client(path: Path) -> None:
    """A game's Discord front works through the narrow ``Road`` it is given (``bot.discord.front``)."""
    assert "bot.discord.client" not in modules(path)


def test_every_button_is_a_game_button() -> None:
    """One base for every persistent button: the custom_id parsed back, its owner checked, a refusal in words."""
    games = Games.load(Settings(), {**installed_modules("hogbot"), "press": "hogbot_press.game:PressGame"})
    fronts = [load(game.discord_front) for game in games.values()]
    buttons = [HistoryButton, LeaderboardButton, *(button for front in fronts for button in front.buttons)]
    assert len(buttons) == 17 and all(issubclass(button, GameButton) for button in buttons)


def import_graph(folder: str) -> dict[str, set[str]]:
    """Each module under ``folder`` and the modules there it imports: every import, those for type
    checking and those inside functions too."""
    named = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p for p in files(folder)}
    graph: dict[str, set[str]] = {}
    for name, path in named.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        wanted: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                wanted |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(
                        [*package.split(".")[: len(package.split(".")) - node.level + 1], *filter(None, [base])]
                    )
                wanted |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
        for module in wanted:
            while module and module not in named:
                module = module.rpartition(".")[0]
            if module and module != name:
                graph.setdefault(name, set()).add(module)
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The import circles: each set of modules that reach one another (Tarjan's strongly connected
    components of more than one module)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in graph.get(module, ()):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            component = set()
            while True:
                other = stack.pop()
                component.add(other)
                if other == module:
                    break
            if len(component) > 1:
                found.append(component)

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_import_circles_among_the_bots_files_are_at_most_two() -> None:
    """Modules that import one another (type-checking imports counted) can only be read together: the
    platform's, the Discord client's and a game module's circles are gone; the number can only go down."""
    found = circles(import_graph("bot"))
    assert len(found) <= 2, sorted(sorted(c) for c in found)
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]  # the count can count


def test_a_game_module_loads_neither_aiohttp_nor_the_composition_root() -> None:
    """A game's module is the rules' side of it: its console, command line and web pages are imported
    when first used, so a tool that only plays (a test, another front) loads no web server."""
    check = (
        "import sys, bot.games.hog.module, bot.games.cucumber.module; "
        "loaded = {'aiohttp', 'bot.platform.compose', 'bot.console', 'bot.cli'} & set(sys.modules); "
        "assert not loaded, sorted(loaded)"
    )
    done = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_discord_client_is_the_connection_alone() -> None:
    """``GameBot`` routes, counts and starts; the road (``bot.discord.road``) runs presses and draws
    boards; the process (``bot.discord.process``) starts it: the client stays small."""
    tree = ast.parse((ROOT / "bot" / "discord" / "client.py").read_text())
    (client,) = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "GameBot"]
    methods = [node for node in client.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
    assert len(methods) <= 12 and (client.end_lineno or 0) - client.lineno < 150, (len(methods), client.end_lineno)
