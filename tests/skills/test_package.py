"""Skill packages: folders and zips read, written back byte-identical, hostile input refused."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest

from studio.skills import SkillError, parse_skill, with_body, with_front_matter
from studio.skills.package import (
    MAX_FILE_BYTES,
    SKIPPED_DIRS,
    read_skill_folder,
    read_skills,
    read_skills_zip,
    write_skill_folder,
    write_skills_zip,
)
from studio.skills.spec import validate_skill

EXAMPLE = Path(__file__).parents[2] / "resources" / "examples" / "skills" / "travel-reimbursement"
DESCRIPTION = (
    "处理差旅费用报销与超标说明。员工提到出差、打车、住宿报销或超标时使用；不处理采购报销。"
)


def _tree(root: Path) -> dict[str, bytes]:
    """Every file a skill folder holds, by path, without what the reader skips by design
    (``__pycache__`` appears beside a script once anyone runs it)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not SKIPPED_DIRS.intersection(p.relative_to(root).parts)
    }


def test_example_reads_with_its_fields() -> None:
    skill = read_skill_folder(EXAMPLE)
    assert skill.name == "travel-reimbursement"
    assert skill.description == DESCRIPTION
    assert skill.allowed_tools == ("search_policy", "query_invoices", "create_reimbursement_ticket")
    assert list(skill.front_matter) == ["name", "description", "allowed-tools", "metadata"]
    assert [rel for rel, _ in skill.files] == [
        "assets/over_limit_note.md",
        "scripts/calc_over_limit.py",
    ]
    assert skill.body.lstrip().startswith("# 差旅报销")
    assert validate_skill(skill, "travel-reimbursement") == []


def test_folder_round_trip_is_byte_identical(tmp_path: Path) -> None:
    skill = read_skill_folder(EXAMPLE)
    write_skill_folder(skill, tmp_path / "out")
    assert _tree(tmp_path / "out") == _tree(EXAMPLE)


def test_crlf_bom_and_odd_yaml_survive(tmp_path: Path) -> None:
    text = "\ufeff---\r\nname: x-y   # comment kept\r\ndescription: 'quoted'\r\n---\r\nBody\r\n"
    folder = tmp_path / "x-y"
    folder.mkdir()
    (folder / "SKILL.md").write_bytes(text.encode())
    skill = read_skill_folder(folder)
    assert skill.description == "quoted"
    write_skill_folder(skill, tmp_path / "again")
    assert (tmp_path / "again" / "SKILL.md").read_bytes() == text.encode()


def test_zip_round_trip(tmp_path: Path) -> None:
    skill = read_skill_folder(EXAMPLE)
    write_skills_zip([skill], tmp_path / "skills.zip")
    [(folder, back)] = read_skills_zip(tmp_path / "skills.zip")
    assert folder == "travel-reimbursement"
    assert back == skill
    write_skills_zip([back], tmp_path / "again.zip")
    assert (tmp_path / "again.zip").read_bytes() == (tmp_path / "skills.zip").read_bytes()


def test_edit_re_renders_only_what_changed() -> None:
    skill = read_skill_folder(EXAMPLE)
    edited = with_body(skill, skill.body + "\n补充一行。\n")
    assert edited.text.startswith(skill.text[: skill.text.index("# 差旅报销")])
    renamed = with_front_matter(skill, description="新的描述")
    assert renamed.description == "新的描述"
    assert renamed.body == skill.body
    assert list(renamed.front_matter) == list(skill.front_matter)
    assert "新的描述" in renamed.text  # Chinese stays readable, not \u-escaped
    assert with_front_matter(skill, description=DESCRIPTION) is skill


def test_folder_of_skills_and_skills_subfolder(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE, tmp_path / "skills" / "travel-reimbursement")
    found = read_skills(tmp_path)
    assert [name for name, _ in found] == ["travel-reimbursement"]


@pytest.mark.parametrize(
    ("entry", "fragment"),
    [
        ("../evil.txt", "zip slip"),
        ("/etc/passwd", "not a relative path"),
        ("a\\..\\b", "not a relative path"),
    ],
)
def test_zip_slip_refused(tmp_path: Path, entry: str, fragment: str) -> None:
    path = tmp_path / "bad.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("s/SKILL.md", "---\nname: s\ndescription: d\n---\n")
        z.writestr(entry, "x")
    with pytest.raises(SkillError, match=fragment) as info:
        read_skills_zip(path)
    assert "\n" not in str(info.value)


def test_zip_symlink_refused(tmp_path: Path) -> None:
    path = tmp_path / "link.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("s/SKILL.md", "---\nname: s\ndescription: d\n---\n")
        info = zipfile.ZipInfo("s/references/secret")
        info.external_attr = (0o120777) << 16
        z.writestr(info, "/etc/shadow")
    with pytest.raises(SkillError, match="symbolic link"):
        read_skills_zip(path)


def test_folder_symlink_refused(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: s\ndescription: d\n---\n")
    os.symlink("/etc/hostname", folder / "host")
    with pytest.raises(SkillError, match=r"s/host: is a symbolic link"):
        read_skill_folder(folder)


def test_huge_file_and_zip_bomb_refused(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    (folder / "assets").mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: s\ndescription: d\n---\n")
    (folder / "assets" / "big.bin").write_bytes(b"\0" * (MAX_FILE_BYTES + 1))
    with pytest.raises(SkillError, match=r"s/assets/big.bin: .* at most"):
        read_skill_folder(folder)
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("s/SKILL.md", "---\nname: s\ndescription: d\n---\n")
        z.writestr("s/assets/zeros", b"\0" * (MAX_FILE_BYTES + 10))
    with pytest.raises(SkillError, match=r"bomb\.zip:s/assets/zeros"):
        read_skills_zip(path)


def test_bad_utf8_located(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "SKILL.md").write_bytes(b"---\nname: s\ndescription: \xff\n---\n")
    with pytest.raises(SkillError, match=r"^s/SKILL.md:3: not UTF-8 \(byte 0xff"):
        read_skill_folder(folder)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no front matter", "SKILL.md:1: must start with '---'"),
        ("---\nname: s\n", "never closed"),
        ("---\nname: [s\n---\n", "SKILL.md:3: front matter"),
        ("---\n- a\n---\n", "must be a mapping"),
    ],
)
def test_bad_front_matter_is_one_located_line(text: str, message: str) -> None:
    with pytest.raises(SkillError, match=message) as info:
        parse_skill(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("front", "folder", "fragment"),
    [
        ("name: PDF-Tools\ndescription: d", None, ":2: name may hold only lowercase"),
        ("name: -pdf\ndescription: d", None, "start or end with a hyphen"),
        ("name: pdf--x\ndescription: d", None, "consecutive hyphens"),
        (f"name: {'a' * 65}\ndescription: d", None, "65 characters; the limit is 64"),
        ("name: pdf\ndescription: ''", None, ":3: description is required"),
        (f"name: pdf\ndescription: {'x' * 1025}", None, "1025 characters; the limit is 1024"),
        ("name: pdf\ndescription: d", "other", "differs from its folder 'other'"),
        ("description: d", None, ":1: name is required"),
        ("name: 报销\ndescription: d", None, None),
    ],
)
def test_spec_rules(front: str, folder: str | None, fragment: str | None) -> None:
    problems = validate_skill(parse_skill(f"---\n{front}\n---\nbody\n"), folder)
    if fragment is None:
        assert problems == []
    else:
        assert any(fragment in p for p in problems), problems
