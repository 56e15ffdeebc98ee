"""The referee is a library: games/rules never imports Django (design: "The referee is a library")."""

import ast
import subprocess
import sys
from pathlib import Path

from tests.processes import clean_environment

RULES = Path(__file__).resolve().parent.parent / "games" / "rules"


def _without_django(code: str) -> str:
    """What ``code`` prints in a fresh interpreter in which importing django fails."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['django'] = None\n" + code],
        cwd=RULES.parent.parent,
        env=clean_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_module_in_the_referee_imports_django():
    modules = sorted(RULES.glob("*.py"))
    assert len(modules) >= 6
    offenders = {p.name: _imports(p) & {"django", "games"} for p in modules}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_referee_imports_and_runs_without_django_installed():
    # A fresh interpreter in which importing django fails: the referee still works.
    code = (
        "from games.rules import cards, skat, skat_list, pitch, manipulation\n"
        "r = skat.score_game(game='grand', bid=24, matadors=skat.Matadors('with', 1), outcome='won')\n"
        "print(r.score)\n"
    )
    out = _without_django(code)
    assert out.strip() == "48"


# The season standings engine (circles/rules) is a library in the same way; it builds
# on the referee, so it may import games.rules, but nothing else of the project.
STANDINGS = RULES.parent.parent / "circles" / "rules"


def _project_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_no_module_in_the_standings_engine_imports_django():
    modules = sorted(STANDINGS.glob("*.py"))
    assert len(modules) >= 4
    offenders = {
        p.name: {
            name
            for name in _project_imports(p)
            if name.split(".")[0] in {"django", "games", "circles", "accounts", "scorekeeper"}
            and not name.startswith("games.rules")
        }
        for p in modules
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_standings_engine_imports_and_runs_without_django_installed():
    code = (
        "from circles.rules import contributions, profile, standings\n"
        "print(standings.ClubRules.from_mapping({'rank_by': 'average'}).rank_by)\n"
    )
    out = _without_django(code)
    assert out.strip() == "average"


# The rules of a club evening (evenings/rules: seating and ranking) are a library in the
# same way (issue 17, "Built right"): they may import games.rules and circles.rules,
# nothing else of the project, and never Django.
EVENING_RULES = RULES.parent.parent / "evenings" / "rules"


def test_no_module_in_the_evening_rules_imports_django():
    modules = sorted(EVENING_RULES.glob("*.py"))
    assert len(modules) >= 2
    offenders = {
        p.name: {
            name
            for name in _project_imports(p)
            if name.split(".")[0]
            in {"django", "games", "circles", "evenings", "accounts", "scorekeeper"}
            and not name.startswith(("games.rules", "circles.rules"))
        }
        for p in modules
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_evening_rules_import_and_run_without_django_installed():
    code = (
        "from evenings.rules import ranking, seating\n"
        "print(seating.table_sizes(11))\n"
        "print(ranking.seeger_fabian_score(ranking.SeriesResult(1, 1, 1, 5, 10, 1, 0, 1)))\n"
    )
    out = _without_django(code)
    assert out.split() == ["(4,", "4,", "3)", "84"]
