"""Skills and remote agents in registries: document, drafts, versions, registry-as-code."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from registry_db.skills import save_draft_skills
from registry_db.store import RegistryStore
from studio.agents.card import read_card_file
from studio.contract import ContractError, Registry, ToolContract, parse_registry
from studio.contract.document import registry_hash, registry_to_dict
from studio.formats.folder import export_registry, import_dir, write_files
from studio.skills.package import SKIPPED_DIRS, read_skill_folder

EXAMPLES = Path(__file__).parents[2] / "resources" / "examples"
SKILL_DIR = EXAMPLES / "skills" / "travel-reimbursement"
CARD = EXAMPLES / "agents" / "expense-audit.json"


def _registry() -> Registry:
    return Registry(
        name="travel",
        tools=(ToolContract(name="search_policy", summary="查询报销制度条款"),),
        skills=(read_skill_folder(SKILL_DIR),),
        agents=(read_card_file(CARD),),
    )


def test_tools_only_document_and_hash_unchanged() -> None:
    plain = Registry(name="travel", tools=(ToolContract(name="search_policy"),))
    doc = registry_to_dict(plain)
    assert "skills" not in doc and "agents" not in doc
    assert registry_hash(plain) == registry_hash(parse_registry(doc))


def test_document_round_trip_keeps_bytes() -> None:
    registry = _registry()
    doc = json.loads(json.dumps(registry_to_dict(registry), ensure_ascii=False))
    back = parse_registry(doc)
    assert back.skills == registry.skills
    assert back.skills[0].text == (SKILL_DIR / "SKILL.md").read_text(encoding="utf-8")
    assert back.agents[0].card == json.loads(CARD.read_text(encoding="utf-8"))
    assert registry_hash(back) == registry_hash(registry)


def test_bad_skill_in_document_is_located() -> None:
    doc = registry_to_dict(_registry())
    doc["skills"].append(dict(doc["skills"][0]))
    doc["skills"][0]["files"]["SKILL.md"] = "no front matter"
    with pytest.raises(ContractError) as info:
        parse_registry(doc)
    assert "skills[0]: SKILL.md:1: must start with '---'" in str(info.value)


def test_draft_publish_and_load(tmp_path: Path) -> None:
    with RegistryStore.open(tmp_path / "db.sqlite3") as store:
        store.import_registry(dataclasses.replace(_registry(), skills=(), agents=()))
        before = store.get_registry("travel").draft_revision
        save_draft_skills(store, "travel", skills=_registry().skills, agents=_registry().agents)
        assert store.get_registry("travel").draft_revision == before + 1
        draft = store.draft_registry("travel")
        assert [s.name for s in draft.skills] == ["travel-reimbursement"]
        assert [a.name for a in draft.agents] == ["expense-audit-agent"]
        info = store.publish("travel", notes="skills")
        version = store.load_version("travel", info.number)
        assert version.registry.skills == draft.skills
        assert version.registry.agents[0].card == draft.agents[0].card
        assert info.content_hash == registry_hash(draft)
    with RegistryStore.open(tmp_path / "db.sqlite3") as again:  # persists across restarts
        assert again.draft_registry("travel").skills == draft.skills
        save_draft_skills(again, "travel", remove=["travel-reimbursement"])
        assert again.draft_registry("travel").skills == ()


def test_tools_only_publish_hash_as_before(tmp_path: Path) -> None:
    plain = Registry(name="plain", tools=(ToolContract(name="search_policy"),))
    with RegistryStore.open(tmp_path / "db.sqlite3") as store:
        store.import_registry(plain)
        info = store.publish("plain")
        assert info.content_hash == registry_hash(plain)
        assert "skills" not in store.load_version("plain", info.number).document


def test_folder_export_import_byte_identical(tmp_path: Path) -> None:
    registry = _registry()
    write_files(export_registry(registry).files, tmp_path / "repo")
    out = tmp_path / "repo" / "skills" / "travel-reimbursement"
    for path in SKILL_DIR.rglob("*"):
        # What the reader skips by design (``__pycache__`` once the script has run) is not
        # part of the skill.
        if path.is_file() and not SKIPPED_DIRS.intersection(path.relative_to(SKILL_DIR).parts):
            assert (out / path.relative_to(SKILL_DIR)).read_bytes() == path.read_bytes()
    assert json.loads((tmp_path / "repo" / "agents" / "expense-audit-agent.json").read_text()) == (
        json.loads(CARD.read_text())
    )
    back, _notes = import_dir(tmp_path / "repo")
    assert back.skills == registry.skills and back.agents == registry.agents
    assert registry_hash(back) == registry_hash(registry)


def test_folder_binary_asset_survives(tmp_path: Path) -> None:
    skill = read_skill_folder(SKILL_DIR)
    png = b"\x89PNG\r\n\x1a\n\x00\xff\xfe"
    skill = dataclasses.replace(skill, files=(*skill.files, ("assets/logo.png", png)))
    registry = Registry(name="r", skills=(skill,))
    write_files(export_registry(registry).files, tmp_path / "repo")
    assert (tmp_path / "repo/skills/travel-reimbursement/assets/logo.png").read_bytes() == png
    back, _ = import_dir(tmp_path / "repo")
    assert back.skills[0].file("assets/logo.png") == png


def test_bundled_example_carries_the_skill_folder_and_card_as_they_are() -> None:
    registry = parse_registry(json.loads((EXAMPLES / "travel-reimbursement.json").read_text()))
    assert registry.skills == (read_skill_folder(SKILL_DIR),)
    assert registry.agents[0].card == json.loads(CARD.read_text(encoding="utf-8"))
    assert registry.skills[0].description == (
        "处理差旅费用报销与超标说明。员工提到出差、打车、住宿报销或超标时使用；不处理采购报销。"
    )


def test_a_non_conforming_name_still_publishes_and_loads(tmp_path: Path) -> None:
    from studio.skills import new_skill

    odd = new_skill("Travel_Reimbursement", "报销")
    registry = Registry(name="odd", skills=(odd,))
    with RegistryStore.open(tmp_path / "db.sqlite3") as store:
        store.import_registry(registry)
        info = store.publish("odd")
        assert store.load_version("odd", info.number).registry.skills == (odd,)
    doc = registry_to_dict(registry)
    doc["skills"][0]["files"]["SKILL.md"] = "---\nname: ../evil\ndescription: d\n---\n"
    doc["skills"][0]["name"] = "../evil"
    with pytest.raises(ContractError, match="not a usable skill name"):
        parse_registry(doc)
