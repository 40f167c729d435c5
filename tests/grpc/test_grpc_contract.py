"""The API contract: buf STANDARD (+ COMMENTS) rules, and generated code that matches it.

``buf lint`` runs when npx can fetch buf; the same rules the contract relies on are also
checked here in Python so the check never depends on the network.
"""

from __future__ import annotations

import filecmp
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROTO = ROOT / "proto"
FILES = sorted((PROTO / "mekref" / "v1").glob("*.proto"))
#: Where make proto writes and the mekref-api package takes its code from (clients/api).
GEN = ROOT / "clients" / "api" / "gen" / "mekref" / "v1"

_DECL = re.compile(r"^\s*(service|rpc|message|enum|oneof)\s+(\w+)")
_RPC = re.compile(
    r"^\s*rpc\s+(\w+)\s*\(\s*(stream\s+)?([\w.]+)\s*\)\s*returns\s*\(\s*(stream\s+)?([\w.]+)\s*\)"
)
_FIELD = re.compile(r"^\s*(?:optional\s+|repeated\s+)?([\w.<>, ]+?)\s+(\w+)\s*=\s*\d+\s*;")
_ENUM_VALUE = re.compile(r"^\s*([A-Z0-9_]+)\s*=\s*(\d+)\s*;")
_SNAKE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")
_PASCAL = re.compile(r"[A-Z][A-Za-z0-9]*")


def _upper_snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


def lint(path: Path) -> list[str]:
    problems: list[str] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    text = "\n".join(lines)
    where = path.name
    if not _SNAKE.fullmatch(path.stem):
        problems.append(f"{where}: file names are lower_snake_case")
    if 'syntax = "proto3";' not in text:
        problems.append(f"{where}: syntax must be proto3")
    if not re.search(r"^package mekref\.v1;$", text, re.M):
        problems.append(f"{where}: package must be mekref.v1 (versioned, matches the folder)")
    stack: list[tuple[str, str]] = []
    for number, line in enumerate(lines, 1):
        at = f"{where}:{number}"
        before = lines[number - 2].strip() if number > 1 else ""
        commented = before.startswith("//")
        decl = _DECL.match(line)
        if decl:
            kind, name = decl.groups()
            if not commented:
                problems.append(f"{at}: {kind} {name} has no comment")
            if kind == "oneof" and not _SNAKE.fullmatch(name):
                problems.append(f"{at}: oneof {name} is not lower_snake_case")
            if kind != "oneof" and not _PASCAL.fullmatch(name):
                problems.append(f"{at}: {kind} {name} is not PascalCase")
            if kind == "service" and not name.endswith("Service"):
                problems.append(f"{at}: service {name} must end with Service")
            if kind == "rpc":
                rpc = _RPC.match(line)
                if rpc is None:
                    problems.append(f"{at}: cannot read rpc {name}")
                else:
                    _, client_stream, req, _, resp = rpc.groups()
                    if req != f"{name}Request" or resp != f"{name}Response":
                        problems.append(
                            f"{at}: rpc {name} takes {name}Request, returns {name}Response"
                        )
                    if client_stream:
                        problems.append(f"{at}: rpc {name}: no client streaming in this API")
            if "{" in line and kind != "rpc":
                stack.append((kind, name))
            continue
        if line.strip().startswith("}") and stack:
            stack.pop()
            continue
        if not stack or not line.strip() or line.strip().startswith("//"):
            continue
        kind, owner = stack[-1]
        if kind in ("message", "oneof"):
            field = _FIELD.match(line)
            if field:
                if not commented:
                    problems.append(f"{at}: field {owner}.{field.group(2)} has no comment")
                if not _SNAKE.fullmatch(field.group(2)):
                    problems.append(f"{at}: field {field.group(2)} is not lower_snake_case")
        if kind == "enum":
            value = _ENUM_VALUE.match(line)
            if value:
                name, num = value.groups()
                prefix = _upper_snake(owner) + "_"
                if not commented:
                    problems.append(f"{at}: enum value {name} has no comment")
                if not name.startswith(prefix):
                    problems.append(f"{at}: enum value {name} must start with {prefix}")
                if num == "0" and name != prefix + "UNSPECIFIED":
                    problems.append(f"{at}: the zero value of {owner} is {prefix}UNSPECIFIED")
    return problems


def test_contract_files_exist() -> None:
    assert {f.name for f in FILES} >= {
        "campaign.proto",
        "orders.proto",
        "battle.proto",
        "event.proto",
        "common.proto",
        "diagnostics.proto",
    }


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_proto_follows_the_standard_rules(path: Path) -> None:
    assert lint(path) == []


def test_request_and_response_messages_are_unique_to_one_rpc() -> None:
    used: dict[str, str] = {}
    for path in FILES:
        for match in _RPC.finditer(path.read_text(encoding="utf-8")):
            rpc, _, req, _, resp = match.groups()
            for message in (req, resp):
                assert message not in used, f"{message} used by {used.get(message)} and {rpc}"
                used[message] = rpc


def test_the_linter_catches_what_it_claims(tmp_path: Path) -> None:
    bad = tmp_path / "BadFile.proto"
    bad.write_text(
        'syntax = "proto3";\npackage other;\nservice Things {\n'
        "  rpc Get(GetThing) returns (Thing);\n}\nenum Colour {\n  RED = 0;\n}\n"
        "// A message.\nmessage Thing {\n  string BadName = 1;\n}\n",
        encoding="utf-8",
    )
    found = "\n".join(lint(bad))
    for expected in (
        "lower_snake_case",
        "package must be mekref.v1",
        "service Things has no comment",
        "must end with Service",
        "takes GetRequest",
        "enum value RED has no comment",
        "must start with COLOUR_",
        "field Thing.BadName has no comment",
        "BadName is not lower_snake_case",
    ):
        assert expected in found


def test_buf_lint() -> None:
    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("npx is not installed; the Python rules above still ran")
    config = '{"version":"v2","lint":{"use":["STANDARD","COMMENTS"]}}'
    try:
        done = subprocess.run(
            [npx, "--yes", "@bufbuild/buf", "lint", str(PROTO), "--config", config],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        pytest.skip("fetching buf took too long; the Python rules above still ran")
    output = done.stdout + done.stderr
    if done.returncode != 0 and ".proto:" not in output:
        pytest.skip(f"buf could not run here: {output.strip()[:300]}")
    assert done.returncode == 0, output


def test_generated_code_is_up_to_date(tmp_path: Path) -> None:
    if not GEN.exists():
        pytest.fail("no generated code: run 'make proto'")
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run(
        [
            sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO}",
            f"--python_out={tmp_path}", f"--grpc_python_out={tmp_path}",
            f"--mypy_out={tmp_path}", f"--mypy_grpc_out={tmp_path}",
            *map(str, FILES),
        ],
        check=True, capture_output=True, env=env,
    )  # fmt: skip
    fresh = tmp_path / "mekref" / "v1"
    names = sorted(p.name for p in fresh.iterdir())
    assert names, "protoc produced nothing"
    stale = [
        n for n in names if not (GEN / n).exists() or not filecmp.cmp(fresh / n, GEN / n, False)
    ]
    assert stale == [], f"generated code is out of date ({stale}): run 'make proto'"


#: The five rule sets' files, whose closed lists the generator writes as enums.
RULE_SET_FILES = ("tripwire", "succession_wars", "dystopian_wars", "objectives", "house_rules")


def enum_counts() -> tuple[int, int]:
    """(``<name>_enum`` fields, enums) in the rule sets' generated files."""
    fields = enums = 0
    for stem in RULE_SET_FILES:
        for line in (PROTO / "mekref" / "v1" / f"{stem}.proto").read_text().splitlines():
            if (field := _FIELD.match(line)) and field.group(2).endswith("_enum"):
                fields += 1
            elif (decl := _DECL.match(line)) and decl.group(1) == "enum":
                enums += 1
    return fields, enums


def test_the_enum_figures_docs_api_gives_are_the_generated_files() -> None:
    """docs/api.md, "Enums beside their text": its counts are those of proto/mekref/v1."""
    text = " ".join((ROOT / "docs" / "api.md").read_text().split())
    said = re.search(r"\((\d+) fields over the five rule sets, (\d+) enums", text)
    assert said is not None, "docs/api.md no longer states the enum figures"
    fields, enums = enum_counts()
    assert fields > 100 and enums > 70  # the regexes still find them
    assert (int(said.group(1)), int(said.group(2))) == (fields, enums)
