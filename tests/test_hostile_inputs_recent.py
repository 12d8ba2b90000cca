"""Hostile input to the readers added lately, through the ``studio`` command as a user runs it.

Each case feeds one malformed or hostile file (or URL, or query) to a reader and
asserts the project's rule: exit code 2 with one line on stderr saying what and
where — never a traceback, never a hang, never exit 0 on garbage. The CLI runs
in-process through :func:`studio.cli.main`; URLs point at real HTTP servers on
127.0.0.1 (port 0) started here.
"""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import stat
import threading
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from studio.cli import main

DEEP = "[" * 100_000 + "]" * 100_000
GOOD_SKILL = "---\nname: demo\ndescription: does a thing\n---\nBody\n"
GOOD_CARD = {
    "name": "Agent",
    "description": "checks expenses",
    "url": "http://127.0.0.1:9/a2a",
    "version": "1",
    "capabilities": {},
    "defaultInputModes": ["text"],
    "defaultOutputModes": ["text"],
    "skills": [],
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code: int, err: str, *expected: str) -> None:
    """Exit 2, one line on stderr, no traceback, and each expected fragment in it."""
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    for fragment in expected:
        assert fragment in err, err


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "hostile.sqlite3")


# --------------------------------------------------------------------------- skills


def _zip(path: Path, entries: dict[str, str | bytes], link: tuple[str, str] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
        if link is not None:
            info = zipfile.ZipInfo(link[0])
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, link[1])
    return path


def _front(front: str) -> dict[str, str | bytes]:
    return {"demo/SKILL.md": f"---\n{front}---\nBody\n"}


SKILL_ZIPS: list[tuple[str, dict[str, str | bytes], tuple[str, ...]]] = [
    ("slip", {**_front("name: demo\ndescription: x\n"), "../evil.txt": "x"}, ("zip slip",)),
    ("absolute", {**_front("name: demo\ndescription: x\n"), "/etc/evil": "x"}, ("/etc/evil",)),
    ("non-utf8", {"demo/SKILL.md": b"---\nname: d\xff\n---\n"}, ("SKILL.md:2", "not UTF-8")),
    ("yaml-list", _front("- a\n- b\n"), ("SKILL.md:2", "mapping")),
    ("name-list", _front("name: [1, 2]\ndescription: x\n"), ("SKILL.md:2", "must be a string")),
    ("name-null", _front("name: null\ndescription: x\n"), ("SKILL.md:2", "has no name")),
    ("name-number", _front("name: 123\ndescription: x\n"), ("SKILL.md:2", "not a number")),
    ("name-dots", _front("name: ..\ndescription: x\n"), ("SKILL.md:2", "cannot be stored")),
    ("yaml-deep", _front("name: demo\ndescription: x\nd: " + DEEP + "\n"), ("front matter:",)),
    ("unclosed", {"demo/SKILL.md": "---\nname: demo\n"}, ("never closed",)),
    (
        "laughs",  # before: imported; a diff or a dump would walk 10^8 values
        _front(
            "name: demo\ndescription: x\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
            + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 8))
        ),
        ("SKILL.md:2", "aliases expand past"),
    ),
    (
        "bidi-name",
        {"技能/SKILL.md": "---\nname: 技能\u202egnp.exe\ndescription: 中文\n---\n"},
        ("U+202E", "技能/SKILL.md:2"),
    ),
]


@pytest.mark.parametrize(
    ("label", "entries", "expected"), SKILL_ZIPS, ids=[c[0] for c in SKILL_ZIPS]
)
def test_hostile_skill_zips_are_refused_in_one_line(
    label: str,
    entries: dict[str, str | bytes],
    expected: tuple[str, ...],
    tmp_path: Path,
    db: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = _zip(tmp_path / f"{label}.zip", entries)
    code, _, err = run(capsys, "--db", db, "import", str(path), "--registry", "r")
    assert_refused(code, err, *expected)
    assert "\u202e" not in err  # shown as U+202E / \u202e, never raw (it reverses the line)


def test_a_zip_symlink_a_bomb_and_a_broken_zip_are_refused(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    link = _zip(tmp_path / "link.zip", _front("name: demo\ndescription: x\n"),
                link=("demo/pw", "/etc/passwd"))  # fmt: skip
    code, _, err = run(capsys, "--db", db, "import", str(link), "--registry", "r")
    assert_refused(code, err, "link.zip:demo/pw", "symbolic link")

    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("demo/SKILL.md", GOOD_SKILL)
        archive.writestr("demo/zeros.bin", b"\0" * (6 * 1024 * 1024))  # 6 MB → ~6 KB
    code, _, err = run(capsys, "--db", db, "import", str(bomb), "--registry", "r")
    assert_refused(code, err, "bomb.zip:demo/zeros.bin", "at most")

    # Before: a .zip that is not a zip went to the tool importers ("is not UTF-8 text").
    broken = tmp_path / "broken.zip"
    broken.write_bytes(_zip(tmp_path / "ok.zip", _front("name: demo\n")).read_bytes()[:40])
    code, _, err = run(capsys, "--db", db, "import", str(broken), "--registry", "r")
    assert_refused(code, err, "broken.zip: not a readable zip")


def test_skill_folders_with_a_link_a_fifo_or_a_folder_for_skill_md(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    linked = tmp_path / "linked" / "demo"
    linked.mkdir(parents=True)
    (linked / "SKILL.md").write_text(GOOD_SKILL)
    os.symlink("/etc/passwd", linked / "pw")
    code, _, err = run(capsys, "--db", db, "import", str(linked.parent), "--registry", "r")
    assert_refused(code, err, "demo/pw", "symbolic link")

    fifo = tmp_path / "fifo" / "demo"
    fifo.mkdir(parents=True)
    (fifo / "SKILL.md").write_text(GOOD_SKILL)
    os.mkfifo(fifo / "pipe")
    code, _, err = run(capsys, "--db", db, "import", str(fifo.parent), "--registry", "r")
    assert_refused(code, err, "demo/pipe", "not a regular file")

    # Before: "registry.json: file not found" (the tool folder importer's guess).
    folder = tmp_path / "dir" / "demo" / "SKILL.md"
    folder.mkdir(parents=True)
    code, _, err = run(capsys, "--db", db, "import", str(folder.parents[1]), "--registry", "r")
    assert_refused(code, err, "demo/SKILL.md", "not a regular file")


@pytest.mark.parametrize("name", ["empty", "card.json"])
def test_a_folder_with_nothing_to_import_is_named(
    name: str, tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "registry.json: file not found", naming no folder."""
    folder = tmp_path / name
    folder.mkdir()
    code, _, err = run(capsys, "--db", db, "import", str(folder))
    assert_refused(code, err, f"{folder}: a folder without registry.json, SKILL.md")


def _registry_folder(root: Path, skill_md: str | None = None, card: str | None = None) -> Path:
    manifest: dict[str, object] = {"format": "tool-registry-studio/registry-dir@1", "name": "rf"}
    (root / "tools").mkdir(parents=True)
    if skill_md is not None:
        manifest["skills"] = ["demo"]
        (root / "skills" / "demo").mkdir(parents=True)
        (root / "skills" / "demo" / "SKILL.md").write_text(skill_md)
    if card is not None:
        manifest["agents"] = ["agent"]
        (root / "agents").mkdir()
        (root / "agents" / "agent.json").write_text(card)
    (root / "registry.json").write_text(json.dumps({**manifest, "tools": []}))
    return root


@pytest.mark.parametrize(
    ("label", "skill_md", "card", "expected"),
    [
        # Before: the three below were imported as they were.
        ("bidi", "---\nname: demo\u202e\ndescription: x\n---\n", None, "U+202E"),
        ("name-list", "---\nname: [1]\ndescription: x\n---\n", None, "must be a string"),
        ("card-skills", None, json.dumps({"name": "a", "skills": {"x": 1}}), "agents/agent.json"),
        ("deep", f"---\nname: demo\nd: {DEEP}\n---\n", None, "skills/demo/SKILL.md"),
    ],
)
def test_registry_folders_refuse_hostile_skills_and_cards(
    label: str,
    skill_md: str | None,
    card: str | None,
    expected: str,
    tmp_path: Path,
    db: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = _registry_folder(tmp_path / label, skill_md, card)
    code, _, err = run(capsys, "--db", db, "import", str(root))
    assert_refused(code, err, expected)
    assert "\u202e" not in err


def test_a_skill_with_a_bom_and_chinese_text_imports(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "\ufeff---\nname: 报销\ndescription: 报销单审核\n---\n正文\n"
    path = _zip(tmp_path / "bom.zip", {"报销/SKILL.md": text})
    code, out, err = run(capsys, "--db", db, "import", str(path), "--registry", "r")
    assert code == 0, err
    assert "added 1 skill(s) to r: 报销" in out


# --------------------------------------------------------------------------- agent cards


CARD_FILES: list[tuple[str, str | bytes, tuple[str, ...]]] = [
    ("truncated", json.dumps(GOOD_CARD)[:-10], ("line 1 column",)),
    ("name-null", json.dumps({**GOOD_CARD, "name": None}), ("name: must be a string, not null",)),
    ("name-number", json.dumps({**GOOD_CARD, "name": 5}), ("name: must be a string",)),
    ("skills-object", json.dumps({**GOOD_CARD, "skills": {"a": 1}}), ("skills: must be an array",)),
    ("skill-number", json.dumps({**GOOD_CARD, "skills": [1]}), ("skills[0]: must be an object",)),
    (
        "skill-id-number",
        json.dumps({**GOOD_CARD, "skills": [{"id": 5, "name": "n", "description": "d"}]}),
        ("skills[0].id: must be a string",),
    ),
    (
        "caps-list",
        json.dumps({**GOOD_CARD, "capabilities": [1]}),
        ("capabilities: must be an obj",),
    ),
    ("schemes-list", json.dumps({**GOOD_CARD, "securitySchemes": [1]}), ("securitySchemes:",)),
    ("url-number", json.dumps({**GOOD_CARD, "url": 5}), ("url: must be a string",)),
    ("deep", '{"name":"a","url":"http://x","skills":' + DEEP + "}", ("nested more than",)),
    ("non-utf8", b'{"name":"\xff","url":"x","skills":[]}', ("not UTF-8",)),
    ("nul-name", json.dumps({**GOOD_CARD, "name": "a\x00b"}), ("U+0000",)),
    ("bidi-name", json.dumps({**GOOD_CARD, "name": "代理\u202etxt.exe"}), ("U+202E",)),
]


@pytest.mark.parametrize(("label", "text", "expected"), CARD_FILES, ids=[c[0] for c in CARD_FILES])
def test_hostile_agent_card_files_are_refused_in_one_line(
    label: str,
    text: str | bytes,
    expected: tuple[str, ...],
    tmp_path: Path,
    db: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / f"{label}.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    code, _, err = run(capsys, "--db", db, "import", str(path), "--registry", "r")
    assert_refused(code, err, f"{label}.json", *expected)


def test_an_agent_card_with_a_bom_imports(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "card.json"
    path.write_bytes("\ufeff".encode() + json.dumps({**GOOD_CARD, "name": "审计代理"}).encode())
    code, out, err = run(capsys, "--db", db, "import", str(path), "--registry", "r")
    assert code == 0, err
    assert "added remote agent" in out


class _Hostile(http.server.BaseHTTPRequestHandler):
    """Answers by path: 500, HTML, an endless body, a body cut short, a trickle…"""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _chunked(self, chunks: Callable[[], Iterator[bytes]]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for chunk in chunks():
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
        except OSError:
            pass  # the client hung up, as it should

    def do_GET(self) -> None:
        kind = self.path.split("/")[1]
        if kind == "500":
            self._send(500, b"oops")
        elif kind == "html":
            self._send(200, b"<html><body>hello</body></html>", "text/html")
        elif kind == "endless":
            self._chunked(lambda: iter(lambda: b"[" * 65536, None))
        elif kind == "trickle":

            def slow() -> Iterator[bytes]:
                while True:
                    yield b" "
                    threading.Event().wait(0.1)

            self._chunked(slow)
        elif kind == "cut":
            body = json.dumps(GOOD_CARD).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:20])
            self.wfile.flush()
            self.close_connection = True
        elif kind == "deep":
            self._send(200, ('{"name":"a","skills":' + DEEP + "}").encode())
        elif kind == "bom":
            self._send(200, "\ufeff".encode() + json.dumps(GOOD_CARD).encode())
        else:
            self._send(200, json.dumps(GOOD_CARD).encode())


@pytest.fixture(scope="module")
def hostile_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


CARD_URLS = [
    ("500", ("HTTP 500 instead of an Agent Card",)),
    ("html", ("line 1 column 1",)),
    ("endless", ("larger than 1,048,576 bytes",)),  # before: read forever
    ("cut", ("cannot fetch the Agent Card", "RemoteProtocolError")),
    ("deep", ("nested more than",)),  # before: a RecursionError traceback
]


@pytest.mark.parametrize(("kind", "expected"), CARD_URLS, ids=[c[0] for c in CARD_URLS])
def test_hostile_agent_card_servers_are_refused_in_one_line(
    kind: str,
    expected: tuple[str, ...],
    hostile_server: str,
    db: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"{hostile_server}/{kind}/card.json"
    code, _, err = run(capsys, "--db", db, "import", "--url", url, "--registry", "r")
    assert_refused(code, err, url, *expected)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://[::1", "not a valid URL"),  # before: an httpx.InvalidURL traceback
        ("http://127.0.0.1:9/a b\x01", "not a valid URL"),
        ("http://127.0.0.1:9/", "cannot fetch the Agent Card (ConnectError"),
        ("file:///etc/passwd", "starts with http:// or https://"),
    ],
)
def test_bad_agent_card_urls_are_refused_in_one_line(
    url: str, expected: str, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--db", db, "import", "--url", url, "--registry", "r")
    assert_refused(code, err, expected)
    assert "\x01" not in err


def test_a_trickling_card_server_is_cut_off_at_the_deadline(hostile_server: str) -> None:
    """Before: each byte reset httpx's read timeout, so a trickle never ended."""
    from studio.agents.card import fetch_card
    from studio.agents.model import AgentCardError

    with pytest.raises(AgentCardError, match=r"no complete Agent Card within 0.5 s"):
        asyncio.run(fetch_card(f"{hostile_server}/trickle/card.json", timeout=0.5))


def test_a_card_served_with_a_bom_imports(
    hostile_server: str, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"{hostile_server}/bom/card.json"
    code, out, err = run(capsys, "--db", db, "import", "--url", url, "--registry", "r")
    assert code == 0, err
    assert "added remote agent agent to r" in out


# --------------------------------------------------------------------------- BFCL and eval sets

QUESTION = {
    "id": "simple_0",
    "question": [[{"role": "user", "content": "factorial of 5?"}]],
    "function": [{"name": "math.factorial", "parameters": {"type": "dict", "properties": {}}}],
}
ANSWER = {"id": "simple_0", "ground_truth": [{"math.factorial": {"n": [5]}}]}

BFCL_QUESTIONS: list[tuple[str, str, tuple[str, ...]]] = [
    ("truncated", json.dumps(QUESTION)[:-5], ("line 1: not JSON",)),
    ("deep", DEEP, ("nested more than",)),  # before: a RecursionError traceback
    ("deep-params", json.dumps(QUESTION).replace('"dict"', DEEP), ("nested more than",)),
    ("list-line", "[1, 2]", ("line 1: expected an object with an id",)),
    (
        "turn-number",
        json.dumps({**QUESTION, "question": [[1]]}),
        ("question must be",),
    ),  # before: AttributeError
    (
        "content-object",
        json.dumps({**QUESTION, "question": [[{"role": "user", "content": {"a": 1}}]]}),
        ("question must be",),  # before: str() of the object became the user's message
    ),
    (
        "function-number",
        json.dumps({**QUESTION, "function": 5}),
        ("function must be a list",),
    ),  # before: TypeError
    ("empty", "", ("no questions",)),  # before: exit 0, "0 BFCL cases"
    ("non-utf8", b'{"id":"simple_0\xff"}'.decode("latin-1"), ()),
]


@pytest.mark.parametrize(
    ("label", "text", "expected"), BFCL_QUESTIONS, ids=[c[0] for c in BFCL_QUESTIONS]
)
def test_hostile_bfcl_questions_are_refused_in_one_line(
    label: str,
    text: str,
    expected: tuple[str, ...],
    tmp_path: Path,
    db: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    questions = tmp_path / f"BFCL_v3_simple_{label}.json"
    questions.write_bytes(text.encode("latin-1") if label == "non-utf8" else text.encode())
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(ANSWER))
    argv = ["--db", db, "eval", "import", "r", str(questions), "--format", "bfcl"]
    code, _, err = run(capsys, *argv, "--answers", str(answers))
    assert_refused(code, err, questions.name, *expected)


BFCL_ANSWERS: list[tuple[str, object, tuple[str, ...]]] = [
    ("params-list", [{"math.factorial": [5]}], ("parameters must be an object",)),  # AttributeError
    ("null", None, ("ground_truth is missing",)),  # before: silently "expects no tool"
    ("stray-tool", [{"rm_rf": {}}], ("'rm_rf', which is not among",)),  # before: imported
    ("object", {"f": 1}, ("non-empty list of calls",)),
]


@pytest.mark.parametrize(
    ("label", "truth", "expected"), BFCL_ANSWERS, ids=[c[0] for c in BFCL_ANSWERS]
)
def test_hostile_bfcl_answers_are_refused_in_one_line(
    label: str,
    truth: object,
    expected: tuple[str, ...],
    tmp_path: Path,
    db: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    questions = tmp_path / "BFCL_v3_simple.json"
    questions.write_text(json.dumps(QUESTION))
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"id": "simple_0", "ground_truth": truth}))
    argv = ["--db", db, "eval", "import", "r", str(questions), "--format", "bfcl"]
    code, _, err = run(capsys, *argv, "--answers", str(answers))
    assert_refused(code, err, "simple_0", *expected)


def test_bfcl_with_a_bom_and_chinese_imports(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    question = {**QUESTION, "question": [[{"role": "user", "content": "五的阶乘是多少？"}]]}
    questions = tmp_path / "BFCL_v3_simple.json"
    questions.write_bytes("\ufeff".encode() + json.dumps(question, ensure_ascii=False).encode())
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(ANSWER))
    argv = ["--db", db, "eval", "import", "r", str(questions), "--format", "bfcl"]
    code, out, err = run(capsys, *argv, "--answers", str(answers))
    assert code == 0, err
    assert "1 BFCL cases (simple)" in out


@pytest.fixture(scope="module")
def seeded_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database holding the travel example (eval sets need a registry)."""
    path = str(tmp_path_factory.mktemp("seeded") / "seeded.sqlite3")
    example = Path(__file__).resolve().parents[1] / "resources/examples/travel-reimbursement.json"
    assert main(["--db", path, "import", str(example)]) == 0
    return path


CASE = {"id": "c1", "user": "hi", "expect": {"kind": "no_tool"}}
EVAL_SETS: list[tuple[str, bytes, tuple[str, ...]]] = [
    ("truncated", json.dumps(CASE)[:-3].encode(), ("line 1: not JSON",)),
    ("array", b"[1]", ("line 1: a case must be a JSON object",)),
    ("deep", DEEP.encode(), ("line 1: objects and arrays are nested more than",)),
    ("non-utf8", b'{"id":"c\xff"}', ("line 1 column 9: is not UTF-8",)),
    ("expect-list", json.dumps({**CASE, "expect": [1]}).encode(), ("line 1: expect",)),
    ("turns-wrong", json.dumps({**CASE, "turns": [1, None]}).encode(), ("turns[",)),
]


@pytest.mark.parametrize(("label", "data", "expected"), EVAL_SETS, ids=[c[0] for c in EVAL_SETS])
def test_hostile_eval_sets_are_refused_with_their_line(
    label: str,
    data: bytes,
    expected: tuple[str, ...],
    tmp_path: Path,
    seeded_db: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / f"set_{label.replace('-', '_')}.jsonl"
    path.write_bytes(data)
    code, _, err = run(
        capsys, "--db", seeded_db, "eval", "import", "travel-reimbursement", str(path)
    )
    assert code == 2 and "Traceback" not in err, err
    assert path.name in err
    for fragment in expected:
        assert fragment in err, err


# --------------------------------------------------------------------------- OpenAPI

_OP = {"operationId": "getPet", "responses": {"200": {"description": "ok"}}}


def _doc(paths: dict[str, object], **extra: object) -> dict[str, object]:
    return {"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": paths, **extra}


OPENAPI_TRACEBACKS: list[tuple[str, dict[str, object]]] = [
    (
        "body-media-number",
        _doc({"/p": {"post": {**_OP, "requestBody": {"content": {"application/json": 5}}}}}),
    ),
    ("responses-array", _doc({"/p": {"get": {**_OP, "responses": [1]}}})),
    (
        "response-content-number",
        _doc({"/p": {"get": {**_OP, "responses": {"200": {"content": 5}}}}}),
    ),
    ("tags-number", _doc({"/p": {"get": {**_OP, "tags": 5}}})),
    (
        "param-media-number",
        _doc(
            {
                "/p": {
                    "get": {
                        **_OP,
                        "parameters": [{"name": "a", "in": "query", "content": {"x": 5}}],
                    }
                }
            }
        ),
    ),
    ("callbacks-number", _doc({"/p": {"get": {**_OP, "callbacks": 5}}})),
    ("components-array", _doc({"/p": {"get": _OP}}, components=[1])),
    (
        "server-variables-array",
        _doc({"/p": {"get": _OP}}, servers=[{"url": "https://{h}", "variables": [1]}]),
    ),
]


@pytest.mark.parametrize(
    ("label", "doc"), OPENAPI_TRACEBACKS, ids=[c[0] for c in OPENAPI_TRACEBACKS]
)
def test_openapi_fields_of_the_wrong_type_import_without_a_traceback(
    label: str, doc: dict[str, object], tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: AttributeError / TypeError tracebacks (exit 1)."""
    path = tmp_path / f"{label}.json"
    path.write_text(json.dumps(doc))
    code, out, err = run(capsys, "--db", db, "import", str(path), "--registry", "x")
    assert code == 0, err
    assert "imported x: 1 tools (openapi)" in out


OPENAPI_SILENT: list[tuple[str, dict[str, object], str]] = [
    (
        "op-null",
        _doc({"/p": {"get": None}}),
        "paths['/p'].get: an operation must be an object, not null",
    ),
    ("op-array", _doc({"/p": {"get": [1]}}), "paths['/p'].get: an operation must be an object"),
    ("item-number", _doc({"/p": 5}), "paths['/p']: a path item must be an object"),
    (
        "params-object",
        _doc({"/p": {"get": {**_OP, "parameters": {"a": 1}}}}),
        ".parameters: must be an array",
    ),
    (
        "param-null",
        _doc({"/p": {"get": {**_OP, "parameters": [None]}}}),
        ".parameters[0]: a parameter must be an object",
    ),
    (
        "schema-number",
        _doc({"/p": {"get": {**_OP, "parameters": [{"name": "a", "in": "query", "schema": 5}]}}}),
        ".parameters[0].schema: must be an object, not a number",
    ),
    (
        "server-url-number",
        _doc({"/p": {"get": _OP}}, servers=[{"url": 5}]),
        "servers[0]: url must be a string",
    ),
    (
        "server-file",
        _doc({"/p": {"get": _OP}}, servers=[{"url": "file:///etc"}]),
        "is not http(s); not used",
    ),
]


@pytest.mark.parametrize(
    ("label", "doc", "note"), OPENAPI_SILENT, ids=[c[0] for c in OPENAPI_SILENT]
)
def test_openapi_parts_that_are_skipped_say_so(
    label: str,
    doc: dict[str, object],
    note: str,
    tmp_path: Path,
    db: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before: dropped without a word ("no operation matched", or nothing at all)."""
    path = tmp_path / f"{label}.json"
    path.write_text(json.dumps(doc))
    code, out, err = run(capsys, "--db", db, "import", str(path), "--registry", "x")
    assert code == 0, err
    assert note in out
    assert "allowed base URLs: none" in out  # neither 5 nor file:///etc became one


@pytest.mark.parametrize("base_url", ["javascript:alert(1)", "file:///etc", "ftp://example.com"])
def test_openapi_base_url_must_be_http(
    base_url: str, tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: accepted, and stored as an allowed base URL of the HTTP executor."""
    path = tmp_path / "api.json"
    path.write_text(json.dumps(_doc({"/p": {"get": _OP}})))
    code, _, err = run(capsys, "--db", db, "import", str(path), "--base-url", base_url)
    assert_refused(code, err, "--base-url", "must be an http:// or https:// URL")


# --------------------------------------------------------------------------- serving


@pytest.fixture(scope="module")
def served(seeded_db: str) -> Iterator[str]:
    """``studio serve`` over the travel example, published once."""
    from registry_db import RegistryStore
    from studio.server import ServerThread

    store = RegistryStore.open(Path(seeded_db))
    store.publish("travel-reimbursement", notes="hostile inputs")  # the CLI would lint too
    server = ServerThread(store, token="t0ken").start()
    try:
        yield server.url
    finally:
        server.stop()
        store.close()


@pytest.mark.parametrize(
    ("query", "status", "fragment"),
    [
        ("role=%00", 400, "role must be printable"),  # before: 200, a role holding NUL
        ("scenario=%0a", 400, "scenario must be printable"),  # before: 200
        ("role=%E2%80%AE", 400, "role must be printable"),  # before: 200 (a bidi override)
        ("role=" + "r" * 300, 400, "role is longer than"),
        ("role=finance&restrict=bogus", 400, "restrict must be filter or choice"),
        ("restrict=choice", 400, "restrict needs role"),
        ("role=%E8%B4%A2%E5%8A%A1", 200, '"registry":"travel-reimbursement"'),  # 财务
        ("role=%zz&scenario=%", 200, '"registry":"travel-reimbursement"'),
    ],
)
def test_resolve_audience_query_values(served: str, query: str, status: int, fragment: str) -> None:
    import httpx

    answer = httpx.get(f"{served}/v1/registries/travel-reimbursement/resolve?{query}", timeout=10)
    assert answer.status_code == status, answer.text
    assert fragment in answer.text


@pytest.mark.parametrize("query", ["role=%00", "role=%E2%80%AE", "role=" + "r" * 300])
def test_mcp_audience_query_values(served: str, query: str) -> None:
    import httpx

    answer = httpx.post(
        f"{served}/mcp/travel-reimbursement?{query}",
        headers={"Authorization": "Bearer t0ken"},
        json={},
        timeout=10,
    )
    assert answer.status_code == 400 and "role must be printable" in answer.text


# --------------------------------------------------------------------------- provider fields

_TOOL = {"name": "get_x", "description": "d", "input_schema": {"type": "object"}}

PROVIDER_FIELDS: list[tuple[str, dict[str, object], int, str]] = [
    ("strict-string", {"strict": "yes"}, 2, "tools[0].strict: must be true or false"),
    ("defer-number", {"defer_loading": 1}, 2, "tools[0].defer_loading: must be true or false"),
    ("examples-object", {"input_examples": {"a": 1}}, 2, "input_examples: must be an array"),
    ("callers-string", {"allowed_callers": "direct"}, 2, "allowed_callers: must be an array"),
    ("callers-numbers", {"allowed_callers": [1, None]}, 2, "allowed_callers: must be an array"),
    # Before: the non-objects were dropped without a word.
    ("examples-items", {"input_examples": [1, None]}, 0, "input_examples[1]: an input example"),
    # Before: the note held the whole megabyte.
    ("callers-huge", {"allowed_callers": ["x" * 1_000_000]}, 0, "unknown callers dropped: 'xxx"),
]


@pytest.mark.parametrize(
    ("label", "fields", "status", "fragment"), PROVIDER_FIELDS, ids=[c[0] for c in PROVIDER_FIELDS]
)
def test_provider_fields_of_the_wrong_type(
    label: str,
    fields: dict[str, object],
    status: int,
    fragment: str,
    tmp_path: Path,
    db: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / f"{label}.json"
    path.write_text(json.dumps({"format": "anthropic", "tools": [{**_TOOL, **fields}]}))
    code, out, err = run(capsys, "--db", db, "import", str(path), "--registry", "p")
    if status:
        assert_refused(code, err, f"{label}.json", fragment)
    else:
        assert code == 0, err
        assert fragment in out
        assert max(len(line) for line in out.splitlines()) < 300


def test_a_card_url_without_a_registry_is_refused_before_any_request(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: the card was fetched first (a 10 s wait on a silent host), then refused."""
    code, _, err = run(capsys, "--db", db, "import", "--url", "http://127.0.0.1:9/")
    assert_refused(code, err, "--registry NAME")


def _damaged_zip(path: Path, damage: str) -> Path:
    """A one-skill zip damaged in one way (flags and fields patched in its bytes)."""
    import struct
    import warnings

    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("demo/SKILL.md", GOOD_SKILL)
        if damage == "twice":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # zipfile warns about the duplicate name
                archive.writestr("demo/SKILL.md", "---\nname: demo\ndescription: twin\n---\n")
    data = bytearray(path.read_bytes())
    central = data.find(b"PK\x01\x02")
    if damage == "encrypted":
        data[6] |= 1
        data[central + 8] |= 1
    elif damage == "crc":
        data[data.find(b"Body")] = ord("X")
    elif damage == "method":
        data[8:10] = struct.pack("<H", 99)
        data[central + 10 : central + 12] = struct.pack("<H", 99)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        ("encrypted", "is encrypted"),  # before: a RuntimeError traceback
        ("crc", "Bad CRC-32"),  # before: a BadZipFile traceback
        ("method", "compression method is not supported"),  # before: NotImplementedError
        ("twice", "appears twice in the zip"),  # before: the last copy silently won
    ],
)
def test_damaged_skill_zips_are_refused_in_one_line(
    damage: str, expected: str, tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _damaged_zip(tmp_path / f"{damage}.zip", damage)
    code, _, err = run(capsys, "--db", db, "import", str(path), "--registry", "r")
    assert_refused(code, err, f"{damage}.zip:demo/SKILL.md", expected)


def test_an_openapi_ref_bomb_is_cut_not_expanded(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ten properties each referring to the next schema, nine deep: 10^9 values as a tree.

    Before: the import ran past a minute (the contract checks walked the inlined tree).
    """
    schemas: dict[str, object] = {}
    for i in range(9):
        following = {"$ref": f"#/components/schemas/S{i + 1}"} if i < 8 else {"type": "string"}
        schemas[f"S{i}"] = {"type": "object", "properties": {f"p{j}": following for j in range(10)}}
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}
    doc = _doc({"/p": {"post": {**_OP, "requestBody": body}}}, components={"schemas": schemas})
    path = tmp_path / "bomb.json"
    path.write_text(json.dumps(doc))
    code, out, err = run(capsys, "--db", db, "import", str(path), "--registry", "x")
    assert code == 0, err
    assert "requestBody: the schema expands past 200,000 values through its $refs" in out


def test_skill_and_card_text_is_printed_as_one_inert_line(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: a description's line break split the listing and ESC[31m reached the terminal."""
    folder = tmp_path / "pkg" / "demo"
    folder.mkdir(parents=True)
    text = '---\nname: demo\ndescription: "line one\\nline two \\e[31mRED"\n---\nBody\n'
    (folder / "SKILL.md").write_text(text)
    card = tmp_path / "card.json"
    card.write_text(json.dumps({**GOOD_CARD, "url": "http://127.0.0.1:9/\x1b[2J", "name": "审计"}))
    assert run(capsys, "--db", db, "import", str(folder.parent), "--registry", "r")[0] == 0
    code, out, _ = run(capsys, "--db", db, "import", str(card), "--registry", "r")
    assert code == 0 and "\x1b" not in out and "http://127.0.0.1:9/\\u001b[2J" in out
    code, out, _ = run(capsys, "--db", db, "skills", "r")
    assert code == 0 and "\x1b" not in out
    assert "skill\tdemo\tline one\\nline two \\u001b[31mRED\t(no other files)" in out.splitlines()
