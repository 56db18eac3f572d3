"""The engine's floors import only downward, and never inside a function to dodge a cycle.

The list of layers lives here, in one place (docs/engine-map.md describes it). A module may import
its own layer and the layers below it; the entry points at the package root may import anything.
"""

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "scheduler_core"

# Lowest first. A layer is a sub-package of scheduler_core.
LAYERS = ("api", "store", "scheduler", "admission", "controllers", "simulation", "explain", "kubeapi", "kubectl")
ENTRY_POINTS = ("__init__", "__main__", "cli", "bench")


@dataclass(frozen=True)
class EngineImport:
    module: str  # the importing module, dotted
    target: str  # the imported name, dotted (a module or a name in one)
    line: int
    in_function: bool


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def engine_imports(path: Path) -> list[EngineImport]:
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return engine_imports_in(path.read_text(), module, package)


def engine_imports_in(source: str, module: str, package: str) -> list[EngineImport]:
    """Every import of scheduler_core in the source, with whether it sits inside a function."""
    found: list[EngineImport] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if _is_type_checking_block(child):
                # annotations only: no import happens at run time; its else branch does run
                assert isinstance(child, ast.If)
                for branch in child.orelse:
                    visit(ast.Module(body=[branch], type_ignores=[]), in_function)
                continue
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            targets: list[str] = []
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{alias.name}" for alias in child.names]
            for target in targets:
                if target.startswith("scheduler_core"):
                    found.append(EngineImport(module, target, child.lineno, inside))
            visit(child, inside)

    visit(ast.parse(source), False)
    return found


def layer_of(dotted: str) -> str:
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def rank(layer: str) -> int:
    """Position of a layer; entry points sit above every layer."""
    if layer in LAYERS:
        return LAYERS.index(layer)
    if layer in ENTRY_POINTS:
        return len(LAYERS)
    raise AssertionError(f"scheduler_core.{layer} belongs to no layer: add it to LAYERS or ENTRY_POINTS")


def back_imports(imports: list[EngineImport]) -> list[str]:
    return [
        f"{each.module}:{each.line} imports {each.target} ({layer_of(each.target)} is above {layer_of(each.module)})"
        for each in imports
        if rank(layer_of(each.target)) > rank(layer_of(each.module))
    ]


def function_imports(imports: list[EngineImport]) -> list[str]:
    return [
        f"{each.module}:{each.line} imports {each.target} inside a function" for each in imports if each.in_function
    ]


ALL_IMPORTS = [each for path in sorted(ENGINE.rglob("*.py")) for each in engine_imports(path)]


def test_every_module_belongs_to_a_layer() -> None:
    for path in ENGINE.rglob("*.py"):
        rank(layer_of(module_name(path)))


def test_layers_import_only_downward() -> None:
    assert back_imports(ALL_IMPORTS) == []


def test_no_engine_import_inside_a_function() -> None:
    assert function_imports(ALL_IMPORTS) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from scheduler_core.simulation.actions import apply_object\n", "simulation is above controllers"),
        ("from scheduler_core.explain import traffic\n", "explain is above controllers"),
        ("def later():\n    from scheduler_core.api.types import Pod\n", "inside a function"),
        ("from ..simulation import state\n", "simulation is above controllers"),
    ],
)
def test_the_checks_catch_a_back_import_and_a_hidden_one(source: str, expected: str) -> None:
    imports = engine_imports_in(source, "scheduler_core.controllers.probe", "scheduler_core.controllers")
    assert expected in " ".join(back_imports(imports) + function_imports(imports))


def test_an_import_in_the_else_of_a_type_checking_block_is_checked() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    pass\n"
        "else:\n"
        "    from scheduler_core.simulation.simulation import Simulation\n"
    )
    imports = engine_imports_in(source, "scheduler_core.controllers.probe", "scheduler_core.controllers")
    assert "simulation is above controllers" in " ".join(back_imports(imports))


def test_annotation_only_imports_are_allowed() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from scheduler_core.simulation.simulation import Simulation\n"
    )
    assert engine_imports_in(source, "scheduler_core.controllers.probe", "scheduler_core.controllers") == []
