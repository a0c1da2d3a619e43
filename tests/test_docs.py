"""The README and the docs as a reader follows them: every link leads somewhere, the README states
the two commands, and CI runs exactly the one that tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as dashes."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def inside(path: Path) -> bool:
    """A file of this clone (not of the folder it happens to stand in)."""
    return path.is_relative_to(ROOT) and path.exists()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_leads_to_a_file_and_a_heading_there(page: Path) -> None:
    """Within this repository: a link to a file beside the clone (``../shared``) is dead in every other clone."""
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.DOTALL)
    named = re.findall(r"`(\.\./[^`\s]+)`", text)  # a path named in code, as a reader would follow it
    broken = [path for path in named if not inside((page.parent / path).resolve())]
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not inside(linked) or (anchor and linked.suffix == ".md" and anchor not in anchors(linked)):
            broken.append(target)
    assert broken == []


def test_the_readme_states_the_two_commands_and_ci_runs_the_test_one() -> None:
    readme = (ROOT / "README.md").read_text()
    play = "python -m pip install . && python -m bot"
    test = 'python -m pip install -e ".[test]" && python -m pytest'
    assert play in readme and test in readme
    venv = "python3 -m venv .venv && . .venv/bin/activate"
    assert venv in readme, "the Quick start makes the virtual environment everything else runs in"
    ci = (ROOT / ".ci" / "run").read_text().strip()
    assert ci.endswith(test) and venv in ci and ci.index(venv) < ci.index(test), "CI does what a newcomer does"
    assert len(readme.splitlines()) <= 220, "the README is a landing page; the reference lives in docs/"


def test_the_roads_diagram_names_the_files_the_road_crosses() -> None:
    """docs/architecture.md draws the road from a press to the board (mermaid): every file it names
    exists, and it names each file a dice click crosses (``tests/discord/test_discord_road.py``)."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    (diagram,) = re.findall(r"```mermaid\n(.*?)```", page, flags=re.DOTALL)
    named = set(re.findall(r"\b((?:bot|storage)/[\w/]+\.py)", diagram))
    assert named and all((ROOT / path).is_file() for path in named), sorted(
        p for p in named if not (ROOT / p).is_file()
    )
    crossed = {"bot/discord/client.py", "bot/discord/buttons.py", "bot/discord/road.py", "bot/discord/answers.py"}
    assert crossed | {"bot/games/hog/discord/front.py", "bot/platform/service.py", "bot/platform/boards.py"} <= named
