"""Sessions at scale: import and analysis of a 10,000-message session, and memory.

Run: ``python benchmarks/sessions_scale.py``. Target (issue #5): a
10,000-message file imports in ≤ 1 s. Also measured: the same session as
JSONL (one message per line), pairing + suspicious analysis, re-validation
of every call against the example registry, building the step-through
replay, storing it, and peak memory (tracemalloc) of import + analysis.

GUI section (issue #5: opening it in the viewer ≤ 1 s): selecting the stored
session in the Sessions mode — read from SQLite, conversation model, pairing,
replay steps, first paint — with Qt offscreen unless a display is set.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from registry_db import load_examples, open_default_store
from registry_db.sessions import SessionStore
from studio.sessions.check import check_session
from studio.sessions.importers import import_sessions
from studio.sessions.library import save_imported
from studio.sessions.pairing import analyse_pairing
from studio.sessions.replay import SessionReplay
from studio.sessions.revalidate import revalidate
from studio.sessions.suspicious import find_suspicious

MESSAGES = 10_000


def openai_log(n: int) -> list[dict]:
    """user → assistant(2 calls) → 2 tool messages → assistant text, repeated (6 messages)."""
    out: list[dict] = [{"role": "system", "content": "You are the travel-reimbursement assistant."}]
    i = 0
    while len(out) < n:
        i += 1
        a, b = f"call_{i}a", f"call_{i}b"
        args = {"start_date": "2026-11-01", "end_date": "2026-11-30", "category": "taxi"}
        out += [
            {"role": "user", "content": f"Question {i}: can I claim invoice INV-{100 + i}?"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": a, "type": "function",
                 "function": {"name": "query_invoices", "arguments": json.dumps(args)}},
                {"id": b, "type": "function",
                 "function": {"name": "search_policy", "arguments": '{"q": "taxi limit"}'}},
            ]},
            {"role": "tool", "tool_call_id": a, "content": json.dumps([{"id": f"INV-{i}"}])},
            {"role": "tool", "tool_call_id": b, "content": "clause 4.2: taxi limit 80"},
            {"role": "assistant", "content": f"Invoice INV-{100 + i} is 38.5 over the limit."},
        ]  # fmt: skip
    return out[:n]


def timed(label: str, fn, results: dict) -> object:
    t = time.perf_counter()
    value = fn()
    results[label] = time.perf_counter() - t
    return value


def main() -> None:
    tmp = Path(tempfile.mkdtemp())
    log = openai_log(MESSAGES)
    doc = tmp / "session.json"
    doc.write_text(json.dumps({"model": "gpt-4o", "messages": log}))
    jsonl = tmp / "session.jsonl"
    jsonl.write_text("".join(json.dumps(m) + "\n" for m in log))
    registry = next(r for r in load_examples() if r.name == "travel-reimbursement")
    times: dict[str, float] = {}

    import_sessions(doc)  # warm imports and caches
    outcome = timed("import JSON document", lambda: import_sessions(doc), times)
    (session,) = outcome.sessions  # type: ignore[attr-defined]
    assert len(session.messages) == MESSAGES, len(session.messages)
    timed("import JSONL (a message per line)", lambda: import_sessions(jsonl), times)
    report = timed("pairing analysis", lambda: analyse_pairing(session.messages), times)
    timed("suspicious patterns", lambda: find_suspicious(session.messages, registry), times)
    rv = timed("re-validation (all calls)", lambda: revalidate(session.messages, registry), times)
    check = timed("check (pairing + suspicious)", lambda: check_session(session.messages), times)
    timed("replay steps", lambda: SessionReplay(session.messages, check), times)  # type: ignore[arg-type]
    # Memory in a second pass: tracemalloc slows the code it traces several times over.
    tracemalloc.start()
    (traced,) = import_sessions(doc).sessions
    check_session(traced.messages)
    SessionReplay(traced.messages)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    store = open_default_store(tmp / "db.sqlite3", seed=False)
    sessions = SessionStore.for_store(store)
    info = timed("store in the session database", lambda: save_imported(sessions, session), times)
    gui = gui_timings(store, info.id)  # type: ignore[attr-defined]
    store.close()

    calls = sum(len(m.tool_calls) for m in session.messages)
    print(
        f"session: {MESSAGES} messages, {calls} tool calls, file {doc.stat().st_size / 1e6:.1f} MB"
    )
    for label, seconds in times.items():
        print(f"  {label:<36} {seconds * 1000:8.1f} ms")
    print(f"  pairing problems: {len(report.problems)}; re-validation: {rv.summary()}")  # type: ignore[attr-defined]
    print(f"  peak traced memory (import + analyses): {peak / 1e6:.1f} MB")
    ok = times["import JSON document"] <= 1.0
    print(f"target: import ≤ 1 s — {'met' if ok else 'MISSED'}")
    print("GUI (Sessions mode, model/view: cards laid out lazily in batches):")
    for label, seconds in gui.items():
        print(f"  {label:<36} {seconds * 1000:8.1f} ms")
    opened = gui["open in the viewer (to first paint)"]
    print(f"target: open in the viewer ≤ 1 s — {'met' if opened <= 1.0 else 'MISSED'}")


def gui_timings(store, session_id: str) -> dict[str, float]:
    """Open the stored session in the session browser and step the replay; seconds per step."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from studio.ui.sessions.browser import SessionsView

    app = QApplication.instance() or QApplication([])
    times: dict[str, float] = {}
    view = SessionsView(store)
    view.resize(1280, 800)
    view.show()
    app.processEvents()
    t = time.perf_counter()
    view.select_session(session_id)
    times["select: load, model, pairing, replay"] = time.perf_counter() - t
    view.repaint()
    app.processEvents()
    times["open in the viewer (to first paint)"] = time.perf_counter() - t
    bar = view.viewer.replay_bar
    t = time.perf_counter()
    bar.jump(0)
    app.processEvents()
    times["replay: jump to step 1 (hide rows)"] = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(100):
        bar.next()
    app.processEvents()
    times["replay: 100 × Next"] = time.perf_counter() - t
    t = time.perf_counter()
    bar.jump(len(view.viewer.replay) - 1)
    app.processEvents()
    times["replay: jump to the last step"] = time.perf_counter() - t
    view.shutdown()
    view.close()
    view.deleteLater()
    app.processEvents()
    return times


if __name__ == "__main__":
    main()
