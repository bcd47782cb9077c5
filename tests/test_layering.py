"""The layering of docs/architecture.md#layers: imports flow one way, and the rules core does no I/O."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "cardroom"

LAYERS = [
    "cards",
    "guandan",
    "records",
    "bots",
    "games",
    "arena",
    "rl",
    "competition",
    "openguandan",
    "tournament",
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


def modules() -> list[tuple[str, Path]]:
    result = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
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


def import_graph() -> dict[str, set[str]]:
    """Every cardroom module's imports of other cardroom modules, at any depth of the file (inside
    functions and ``TYPE_CHECKING`` blocks too); ``from package import module`` counts as the module."""
    names = {name for name, _ in modules()}
    graph: dict[str, set[str]] = {}
    for name, path in modules():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names if alias.name in names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    if submodule in names:
                        edges.add(submodule)
                    elif node.module in names:
                        edges.add(node.module)
        graph[name] = edges - {name}
    return graph


def cycle_through(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """A path of imports from ``start`` back to itself, if there is one."""
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        module, path = stack.pop()
        for imported in graph.get(module, ()):
            if imported == start:
                return [*path, start]
            if imported not in seen:
                seen.add(imported)
                stack.append((imported, [*path, imported]))
    return None


CIRCLE_FREE = ("cardroom.cards", "cardroom.guandan")
"""Packages whose modules import one way (the rules core); the others follow as their circles go."""


@pytest.mark.parametrize(
    "module",
    [name for name, _ in modules() if name.startswith(CIRCLE_FREE) and name != "cardroom.guandan"],
)
def test_no_import_circles_in_the_rules_core(module: str) -> None:
    """No module of the rules core reaches itself through its imports, lazy and TYPE_CHECKING ones
    included (the package's own ``__init__``, which gathers the public names, aside)."""
    graph = import_graph()
    graph = {name: edges - {"cardroom.guandan"} for name, edges in graph.items()}
    assert cycle_through(graph, module) is None, (
        f"import circle: {' → '.join(cycle_through(graph, module) or [])}"
    )


def import_cycles(package: str) -> list[list[str]]:
    """The import circles among the modules of ``package`` (imports inside functions count: a circle
    broken only by importing late is still a circle), each as its modules in order."""
    names = {name for name, _ in modules() if name.startswith(package + ".")}
    graph = {
        name: sorted({imported for imported in imports_of(path) if imported in names and imported != name})
        for name, path in modules()
        if name in names
    }
    cycles: list[list[str]] = []
    done: set[str] = set()

    def visit(module: str, trail: list[str]) -> None:
        if module in trail:
            cycles.append(trail[trail.index(module) :])
            return
        if module in done:
            return
        for imported in graph[module]:
            visit(imported, [*trail, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    return cycles


ONE_WAY_PACKAGES = (
    "cardroom.arena",
    "cardroom.bots",
    "cardroom.games",
    "cardroom.openguandan",
    "cardroom.records",
    "cardroom.rl",
    "cardroom.server",
)
"""Packages whose modules import one way (``import_cycles`` finds none)."""


@pytest.mark.parametrize("package", ONE_WAY_PACKAGES)
def test_no_import_circles_within_a_package(package: str) -> None:
    """Within these packages modules import one way too: no two modules need each other, not even
    through an import inside a function."""
    assert import_cycles(package) == []


@pytest.mark.parametrize("module", [name for name, _ in modules() if name.startswith("cardroom.server.")])
def test_no_import_circles_in_the_card_room(module: str) -> None:
    """The card room's table and its helpers (clocks, conduct, outcomes, views) import one way: the
    helpers never import the table back, not even for ``TYPE_CHECKING`` nor as ``from cardroom.server
    import module`` (the package's ``__init__`` aside)."""
    graph = {name: edges - {"cardroom.server"} for name, edges in import_graph().items()}
    assert cycle_through(graph, module) is None, (
        f"import circle: {' → '.join(cycle_through(graph, module) or [])}"
    )


def test_import_circles_are_found() -> None:
    """The checks above can fail: a circle, direct or through a third module, is found."""
    assert cycle_through({"a": {"b"}, "b": {"a"}}, "a") == ["a", "b", "a"]
    assert cycle_through({"a": {"b"}, "b": {"c"}, "c": {"a"}}, "b") == ["b", "c", "a", "b"]
    assert cycle_through({"a": {"b"}, "b": {"c"}, "c": set()}, "a") is None


SERVER_LAYERS = ["tables", "storage", "live", "accounts", "events", "api"]
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
    """tables → storage → live → accounts → events → api: no server module imports a higher
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
