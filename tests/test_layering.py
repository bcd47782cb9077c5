"""The layering of docs/architecture.md#layers: imports flow one way, and the rules core does no I/O."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardroom"

LAYERS = [
    "cards",
    "rule_errors",
    "guandan",
    "records",
    "bots",
    "games",
    "arena",
    "rl",
    "competition",
    "openguandan",
    "tournament",
    "ladder",
    "server",
    "terminal",
    "demo",
    "cli",
]
"""Lower layers first; a module may import only from its own layer or a lower one."""

SAME_LAYER = {"shengji": "guandan"}
"""Packages that share a layer: the two games' rules cores stand side by side."""

CORE_FORBIDDEN = {"os", "sys", "io", "logging", "pathlib", "socket", "subprocess", "time", "rich", "typer"}

CORE_ALLOWED = {"cardroom.guandan.native": {"os"}}
"""The one exception: the compiled core's loader reads ``CARDROOM_PURE`` once, at import, to force the
pure engine (no I/O, no clock)."""


def layer_of(module: str) -> int:
    parts = module.split(".")
    if parts[0] != "cardroom" or len(parts) == 1:
        return -1
    name = SAME_LAYER.get(parts[1], parts[1])
    return LAYERS.index(name) if name in LAYERS else len(LAYERS)


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
    return found


def modules(package: Path = PACKAGE) -> list[tuple[str, Path]]:
    result = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package.parent).with_suffix("")
        name = ".".join(part for part in relative.parts if part != "__init__")
        result.append((name, path))
    return result


@pytest.mark.parametrize(("module", "path"), modules(), ids=[name for name, _ in modules()])
def test_imports_flow_one_way(module: str, path: Path) -> None:
    """cards → guandan/shengji → records → bots → games → arena | rl | server: no module imports a higher
    layer."""
    own = layer_of(module)
    for imported in imports_of(path):
        assert layer_of(imported) <= own, f"{module} imports {imported}, a higher layer"


@pytest.mark.parametrize(
    ("module", "path"),
    [(name, path) for name, path in modules() if layer_of(name) <= LAYERS.index("guandan")],
    ids=[name for name, _ in modules() if layer_of(name) <= LAYERS.index("guandan")],
)
def test_rules_core_does_no_io(module: str, path: Path) -> None:
    """The pure rules core does no I/O and reads no clock: randomness and time are injected."""
    allowed = CORE_ALLOWED.get(module, set())
    for imported in imports_of(path):
        root = imported.split(".")[0]
        assert root not in CORE_FORBIDDEN - allowed, f"{module} imports {imported}"


@pytest.mark.parametrize(
    ("module", "path"),
    [(name, path) for name, path in modules() if name.split(".")[1:2] in (["guandan"], ["shengji"])],
    ids=[name for name, _ in modules() if name.split(".")[1:2] in (["guandan"], ["shengji"])],
)
def test_the_two_games_stand_apart(module: str, path: Path) -> None:
    """guandan and shengji share a layer but not code: each builds on cardroom.cards alone."""
    game = module.split(".")[1]
    other = {"guandan": "shengji", "shengji": "guandan"}[game]
    for imported in imports_of(path):
        assert not imported.startswith(f"cardroom.{other}"), f"{module} imports {imported}"


def imported_modules(module: str, path: Path, names: set[str]) -> set[str]:
    """The modules among ``names`` that ``module`` (at ``path``) imports, at any depth of the file (inside
    functions and ``TYPE_CHECKING`` blocks too: a circle is a circle for a reader). ``import a.b`` names
    ``a.b``; ``from a.b import c`` names ``a.b`` (a package's ``__init__``, whose names are read) and
    ``a.b.c`` too where that is a module; relative imports count as the absolute ones they stand for."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            found |= {source, *(f"{source}.{alias.name}" for alias in node.names)}
    return (found & names) - {module}


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Every module of ``package`` and the modules of ``package`` it imports (:func:`imported_modules`)."""
    found = modules(package)
    names = {name for name, _ in found}
    return {name: imported_modules(name, path, names) for name, path in found}


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected components of more than one module
    (Tarjan's algorithm), each sorted, in order of their first module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph.get(module, ())):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(circles)


def circle_path(graph: dict[str, set[str]], circle: list[str]) -> list[str]:
    """One path of imports round ``circle``, from its first module back to it (breadth first)."""
    start, members = circle[0], set(circle)
    paths = {start: [start]}
    queue = [start]
    for module in queue:
        for imported in sorted(graph[module] & members):
            if imported == start:
                return [*paths[module], start]
            if imported not in paths:
                paths[imported] = [*paths[module], imported]
                queue.append(imported)
    raise AssertionError(f"{circle} is not a circle of the graph")


def test_no_import_circles() -> None:
    """No module of cardroom reaches itself through its imports: every package (its ``__init__`` and the
    server included) reads one way, from the modules that define things to those that use them."""
    graph = import_graph()
    found = [" → ".join(circle_path(graph, circle)) for circle in import_circles(graph)]
    assert not found, "import circles:\n" + "\n".join(found)


def test_import_circles_are_found() -> None:
    """The circle finder can fail: a circle of two or three modules is found, each once, and the modules
    that only lead into it or away from it are not part of it."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"a", "f"}, "f": {"e"}, "g": {"d"}}
    assert import_circles(graph) == [["a", "b", "c"], ["e", "f"]]
    assert circle_path(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_import_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The graph has an edge for each way one module can import another: ``import a.b``, ``from a import
    b`` (to the package's ``__init__`` and to the module), a relative import, and imports inside a
    function or under ``if TYPE_CHECKING:``."""
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    sources = {
        "__init__.py": "from pkg.plain import thing\n",
        "plain.py": "import pkg.sub.deep\n",
        "relative.py": "from . import plain\nfrom .sub import deep\nfrom ..elsewhere import x\n",
        "lazy.py": "def f():\n    from pkg.sub.deep import g\n",
        "typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import lazy\n",
        "sub/__init__.py": "",
        "sub/deep.py": "from pkg import thing\n",
    }
    for name, source in sources.items():
        (root / name).write_text(source, encoding="utf-8")
    assert import_graph(root) == {
        "pkg": {"pkg.plain"},
        "pkg.plain": {"pkg.sub.deep"},
        "pkg.relative": {"pkg", "pkg.plain", "pkg.sub", "pkg.sub.deep"},
        "pkg.lazy": {"pkg.sub.deep"},
        "pkg.typed": {"pkg", "pkg.lazy"},
        "pkg.sub": set(),
        "pkg.sub.deep": {"pkg"},
    }
    assert import_circles(import_graph(root)) == [["pkg", "pkg.plain", "pkg.sub.deep"]]


SERVER_LAYERS = ["tables", "storage", "live", "accounts", "events", "ladder", "api"]
"""The card room's sub-packages, lower first (docs/architecture.md#server): a server module may import
only its own sub-package or a lower one."""

TABLES_FORBIDDEN = CORE_FORBIDDEN | {
    "asyncio",
    "concurrent",
    "threading",
    "multiprocessing",
    "sqlalchemy",
    "alembic",
    "fastapi",
    "starlette",
    "uvicorn",
    "websockets",
    "argon2",
}
"""What the card room's pure table state never imports: files, sockets, clocks, the event loop, threads
and processes, the database, the web framework. (A table draws its seat tokens and its seed from
``secrets`` and deals with a ``random.Random`` seeded from that seed: no I/O, no clock.)"""


def server_layer_of(module: str) -> int | None:
    """The index in :data:`SERVER_LAYERS` of a ``cardroom.server.<sub-package>…`` module, ``None`` for
    anything else (the ``cardroom.server`` package itself included)."""
    parts = module.split(".")
    if parts[:2] != ["cardroom", "server"] or len(parts) < 3:
        return None
    assert parts[2] in SERVER_LAYERS, f"{module} is in no sub-package of the server"
    return SERVER_LAYERS.index(parts[2])


SERVER_MODULES = [(name, path) for name, path in modules() if name.startswith("cardroom.server.")]


@pytest.mark.parametrize(("module", "path"), SERVER_MODULES, ids=[name for name, _ in SERVER_MODULES])
def test_the_server_imports_one_way_down(module: str, path: Path) -> None:
    """tables → storage → live → accounts → events → ladder → api: no server module imports a higher
    sub-package, not inside a function nor for ``TYPE_CHECKING`` either."""
    own = server_layer_of(module)
    assert own is not None
    for imported in imports_of(path):
        layer = server_layer_of(imported)
        assert layer is None or layer <= own, f"{module} imports {imported}, a higher sub-package"


TABLE_MODULES = [(name, path) for name, path in SERVER_MODULES if server_layer_of(name) == 0]


@pytest.mark.parametrize(("module", "path"), TABLE_MODULES, ids=[name for name, _ in TABLE_MODULES])
def test_the_tables_do_no_io(module: str, path: Path) -> None:
    """``server/tables/`` is pure table state: no I/O, no clock (``now`` is passed in), no event loop,
    no database, no web framework."""
    for imported in imports_of(path):
        assert imported.split(".")[0] not in TABLES_FORBIDDEN, f"{module} imports {imported}"


def test_the_server_checks_can_fail() -> None:
    """A module of a lower sub-package importing a higher one is out of order; one outside any
    sub-package is refused."""
    assert server_layer_of("cardroom.server.tables.guandan") == 0
    assert server_layer_of("cardroom.server.api.app") == len(SERVER_LAYERS) - 1
    assert server_layer_of("cardroom.server") is None
    assert server_layer_of("cardroom.guandan.deal") is None
    with pytest.raises(AssertionError, match="no sub-package"):
        server_layer_of("cardroom.server.rooms")


PURE_PROTOCOL_MODULES = (
    "cardroom.openguandan",
    "cardroom.openguandan.wire",
    "cardroom.openguandan.frames",
    "cardroom.openguandan.room",
    "cardroom.openguandan.view",
)
"""OpenGuanDan's frames, rooms and views: pure, so the server and the client are their only I/O."""
PROTOCOL_FORBIDDEN = CORE_FORBIDDEN | {
    "asyncio",
    "websockets",
    "cardroom.openguandan.server",
    "cardroom.openguandan.client",
}


@pytest.mark.parametrize("module", PURE_PROTOCOL_MODULES)
def test_the_openguandan_protocol_is_pure_below_its_server_and_client(module: str) -> None:
    """The room, the frames and the view do no I/O, read no clock and import neither the server nor
    the client (which do the websocket I/O)."""
    path = dict(modules())[module]
    for imported in imports_of(path):
        assert imported not in PROTOCOL_FORBIDDEN, f"{module} imports {imported}"
        assert imported.split(".")[0] not in PROTOCOL_FORBIDDEN, f"{module} imports {imported}"
