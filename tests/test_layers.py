"""The package import matrix: every part of `bot/` sits on a floor and imports only floors below
it; no two modules import each other, even through a function-level or TYPE_CHECKING import;
asyncpg only where PostgreSQL is driven; command-line entry points only in `bot/cli` and the
tools. Read from the source with `ast` (nothing is imported), so a new arrow fails here with its
file and line before it becomes a habit.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot"

# Bottom to top. A part imports only parts on lower floors (and itself). Ties on one floor
# never import each other. Entry points and tools are the top floor; nothing imports them.
FLOORS: tuple[frozenset[str], ...] = tuple(
    frozenset(floor)
    for floor in (
        {"core", "emulator"},  # pure quiz rules; the Bot API emulator stands alone
        # small, with no bot parts (setting_names: the QUIZBOT_* names, for a misspelt one)
        {"csv_cells", "log_budget", "logs", "control", "ordering", "setting_names"},
        {"i18n", "webhook_gate", "webhook_replies"},  # gettext + Babel; the webhook's door, and
        # the popups that ride on its responses
        {"observability"},  # metrics (the store counts answers) and their /metrics server
        {"content", "store", "number_words", "schedule_words"},  # files, SQL, words per language
        {"config", "usecases"},  # settings read from the environment; the use cases
        {"item_words", "compose"},  # item analysis in words; the use cases built (compose.py)
        {"tg", "web", "workers"},  # the adapters: Telegram, the Mini App, PostgreSQL workers
        {"cli", "bench", "i18n_tools"},  # entry points and tools
        {"sandbox", "__main__"},  # the offline sandbox runs `cli.run`; `quizbot` dispatches
    )
)
ASYNCPG_PARTS = {"store", "workers", "cli", "bench"}  # bench measures PostgreSQL's own CPU
ENTRY_POINT_PARTS = {"cli", "bench", "sandbox", "__main__", "i18n_tools"}


@dataclass(frozen=True)
class Arrow:
    source: str  # module name
    target: str
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(BOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(BOT.rglob("*.py"))}


def part(module: str) -> str:
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else "bot"


def _known(name: str) -> str | None:
    """The module an import names: itself, or the package that holds the imported name."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


@cache
def tree_of(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"))


def arrows(source: str) -> Iterator[Arrow]:
    """Every import of a bot module, at any depth: top level, in functions, under TYPE_CHECKING."""
    path = MODULES[source]
    package = source if path.name == "__init__.py" else source.rpartition(".")[0]
    for node in ast.walk(tree_of(path)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            subs = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in MODULES]
            names = subs + ([module] if len(subs) < len(node.names) else [])
        for name in names:
            target = _known(name) if name.startswith("bot") else None
            if target is not None and target != source:
                yield Arrow(source, target, node.lineno)


GRAPH = {m: sorted({a.target for a in arrows(m)}) for m in MODULES}


def floor_of(name: str) -> int:
    for i, floor in enumerate(FLOORS):
        if name in floor:
            return i
    raise KeyError(name)


def test_every_part_has_a_floor() -> None:
    parts = {part(m) for m in MODULES} - {"bot"}
    placed = set().union(*FLOORS)
    assert parts - placed == set(), "place the new part on a floor in FLOORS"
    assert placed - parts == set(), "a floor names a part that no longer exists"


def test_no_import_runs_up_or_sideways() -> None:
    wrong = [
        f"{MODULES[a.source].relative_to(BOT.parent)}:{a.line} imports {a.target}"
        for m in MODULES
        if part(m) != "bot"
        for a in arrows(m)
        if part(a.target) not in {part(m), "bot"} and floor_of(part(a.target)) >= floor_of(part(m))
    ]
    assert wrong == []


def strongly_connected(graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's components of more than one module (iterative: no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph.get(target, []))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_two_modules_import_each_other() -> None:
    assert strongly_connected(GRAPH) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}
    assert strongly_connected(graph) == [["a", "b", "c"]]


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(tree_of(path)):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return roots


def test_asyncpg_only_where_postgresql_is_driven() -> None:
    outside = [
        str(path.relative_to(BOT))
        for name, path in MODULES.items()
        if "asyncpg" in imported_roots(path) and part(name) not in ASYNCPG_PARTS
    ]
    assert outside == []


def is_entry_point(path: Path) -> bool:
    """A module with its own command line: argparse, or a `__main__` guard."""
    tree = tree_of(path)
    if "argparse" in imported_roots(path):
        return True
    return any(
        isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Name)
        and node.left.id == "__name__"
        for node in ast.walk(tree)
    )


def test_command_lines_live_in_cli_or_a_tool() -> None:
    library = [name for name in MODULES if part(name) not in ENTRY_POINT_PARTS]
    assert [name for name in library if is_entry_point(MODULES[name])] == []


def test_library_packages_never_import_an_entry_point() -> None:
    wrong = [
        f"{a.source} imports {a.target}"
        for m in MODULES
        if part(m) not in ENTRY_POINT_PARTS
        for a in arrows(m)
        if part(a.target) in ENTRY_POINT_PARTS
    ]
    assert wrong == []


# The adapter's shared parts: wiring (app, and handler_order: the order of its handlers), the
# per-update context, callback data (its table and the codec that reads it) and the router that
# binds buttons to chats, the command menus, forum topics, sending in groups, and helpers
# every renderer or handler uses. Everything else is a feature's `<feature>_handlers.py`
# (parse, call a use case, send) or `<feature>_render.py` (text and keyboards); wire code is
# in `tg/wire/`.
TG_SHARED = {
    "__init__.py",
    "app.py",
    "buttons.py",
    "callback_codec.py",
    "callbacks.py",
    "context.py",
    "group_sends.py",  # posting in a group, following a migration or a removal
    "handler_order.py",
    "handler_set.py",  # QuizBot's part that builds every handler object, once
    "long_lists.py",
    "member_replies.py",
    "menus.py",
    "mini_app.py",
    "options.py",  # BotOptions, and the service inputs an entry point composes from them
    "owner.py",
    "quiz_links.py",
    "repeated_updates.py",  # QuizBot's guard: an update delivered again acts once
    "screen_send.py",  # showing a Screen in any chat: send, reply, edit, answer a tap
    "served_content.py",  # QuizBot's part that serves content: reload, uploads synced
    "topics.py",
}


def test_the_adapter_follows_one_naming_rule() -> None:
    names = {p.name for p in (BOT / "tg").glob("*.py")}
    odd = {n for n in names - TG_SHARED if not n.endswith(("_handlers.py", "_render.py"))}
    assert odd == set(), "name it <feature>_handlers.py or <feature>_render.py, or move to wire/"
    assert names >= TG_SHARED, "a shared part named here no longer exists"


# The composition root is called at the entry points only: each composes its own bot (the
# command line's run and worker, the sandbox, the benchmark's bot process), and only they build
# the adapter, handed its services built (`QuizBot(options, services)`). The tests are an entry
# point too: they compose services where they need them, and bots through the harness
# (`tests/e2e/harness.py` `compose_bot`).
COMPOSERS = {
    "bot.cli.run",
    "bot.cli.worker",
    "bot.sandbox.session",
    "bot.bench.botproc",
}


def calls_of(path: Path, name: str) -> list[int]:
    """Lines where `name(...)` or `x.name(...)` is called."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == name)
            or (isinstance(node.func, ast.Attribute) and node.func.attr == name)
        )
    ]


def test_only_an_entry_point_builds_the_services_and_the_bot() -> None:
    callers = {name for name, path in MODULES.items() if calls_of(path, "build_services")}
    assert callers == COMPOSERS, "build_services is called by an entry point only"
    builders = {name for name, path in MODULES.items() if calls_of(path, "QuizBot")}
    assert builders == COMPOSERS, "QuizBot is built where its services are composed"


def test_the_call_finder_sees_a_call_by_name_and_by_attribute(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text("import bot.compose\nbuild_services(1)\nbot.compose.build_services(2)\n")
    assert calls_of(source, "build_services") == [2, 3]
