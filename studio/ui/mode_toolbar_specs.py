"""What the Sessions, Diff and Release toolbars hold: one :class:`Command` per action.

Every command goes through the view (its button or its slot), so the toolbar
adds no behaviour of its own; see :mod:`studio.ui.mode_toolbars`. The views are
never imported here: a command reads the view it is given.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from studio.ui.mode_toolbars import Command, ModeSpec, Pixmap

View = Any

SESSIONS = ModeSpec(
    mode="sessions",
    view_attr="sessions_view",
    unbuilt=str(QT_TRANSLATE_NOOP("ModeToolbars", "Open the Sessions mode first")),
    commands=(
        Command(
            "sessions_import_log",
            Pixmap.SP_DialogOpenButton,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Import log…")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars",
                    "Import sessions from a provider log, an agent trajectory or a session file",
                )
            ),
            button=lambda v: v.import_button,
        ),
        Command(
            "sessions_record_proxy",
            Pixmap.SP_DriveNetIcon,
            "",  # the view's label: Record proxy… or Stop proxy
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars",
                    "Record an agent's traffic through a local proxy; its sessions arrive here",
                )
            ),
            button=lambda v: v.proxy_button,
        ),
        Command(
            "sessions_export",
            Pixmap.SP_DialogSaveButton,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Export")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars",
                    "Export the session as OpenAI, Anthropic or JSONL (secrets redacted)",
                )
            ),
            button=lambda v: v.export_button,
            menu=lambda v: v.export_button.menu(),
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "Select a session first")),
        ),
        None,
        Command(
            "sessions_replay_model",
            Pixmap.SP_MediaPlay,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Replay as model…")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars",
                    "Play the recorded assistant turns against the current runtime and registry",
                )
            ),
            button=lambda v: v.viewer.replay_model_button,
            why=str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars", "Select a session first (or wait for the running replay)"
                )
            ),
        ),
        Command(
            "sessions_stop_replay",
            Pixmap.SP_MediaStop,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Stop")),
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Stop the replay")),
            button=lambda v: v.viewer.stop_replay_button,
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "No replay is running")),
            low_priority=True,
        ),
        Command(
            "sessions_previous_step",
            Pixmap.SP_MediaSeekBackward,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Previous message")),
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Step back one message (Alt+Left)")),
            button=lambda v: v.viewer.replay_bar.previous_button,
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "At the first step, or no session")),
            low_priority=True,
        ),
        Command(
            "sessions_next_step",
            Pixmap.SP_MediaSeekForward,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Next message")),
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Step to the next message (Alt+Right)")),
            button=lambda v: v.viewer.replay_bar.next_button,
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "At the last step, or no session")),
            low_priority=True,
        ),
        Command(
            "sessions_previous_problem",
            Pixmap.SP_MediaSkipBackward,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Previous problem")),
            str(QT_TRANSLATE_NOOP("ModeToolbars", "The previous step with a problem")),
            button=lambda v: v.viewer.replay_bar.previous_problem_button,
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "No problem before this step")),
            low_priority=True,
        ),
        Command(
            "sessions_next_problem",
            Pixmap.SP_MediaSkipForward,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Next problem")),
            str(QT_TRANSLATE_NOOP("ModeToolbars", "The next step with a problem")),
            button=lambda v: v.viewer.replay_bar.next_problem_button,
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "No problem after this step")),
            low_priority=True,
        ),
        None,
        Command(
            "sessions_doctor",
            Pixmap.SP_DialogResetButton,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Doctor")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars", "Repair, convert or trim the session (saved as a new session)"
                )
            ),
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "Select a session first")),
            children=(
                Command(
                    "sessions_repair",
                    Pixmap.SP_DialogResetButton,
                    str(QT_TRANSLATE_NOOP("ModeToolbars", "Repair…")),
                    str(
                        QT_TRANSLATE_NOOP(
                            "ModeToolbars",
                            "The smallest change that makes this history valid for a provider",
                        )
                    ),
                    button=lambda v: v.viewer.doctor_buttons["repair"],
                ),
                Command(
                    "sessions_convert",
                    Pixmap.SP_ArrowRight,
                    str(QT_TRANSLATE_NOOP("ModeToolbars", "Convert…")),
                    str(
                        QT_TRANSLATE_NOOP(
                            "ModeToolbars", "This conversation in another provider's wire shape"
                        )
                    ),
                    button=lambda v: v.viewer.doctor_buttons["convert"],
                ),
                Command(
                    "sessions_trim",
                    Pixmap.SP_DialogDiscardButton,
                    str(QT_TRANSLATE_NOOP("ModeToolbars", "Trim…")),
                    str(
                        QT_TRANSLATE_NOOP(
                            "ModeToolbars",
                            "Drop the oldest messages to fit a token budget, at safe points only",
                        )
                    ),
                    button=lambda v: v.viewer.doctor_buttons["trim"],
                ),
            ),
        ),
        Command(
            "sessions_revalidate",
            Pixmap.SP_DialogApplyButton,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Re-validate")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars",
                    "Check every recorded call against a registry version (the Re-validation tab)",
                )
            ),
            slot=lambda v: _revalidate(v),
            enabled=lambda v: v.info is not None and v.revalidate_view.run_button.isEnabled(),
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "Select a session first")),
        ),
        Command(
            "sessions_eval_case",
            Pixmap.SP_FileDialogNewFolder,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Eval case…")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars",
                    "Add this step's user turn and the calls it led to as an eval case",
                )
            ),
            button=lambda v: v.viewer.add_case_button,
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "Select a session first")),
        ),
    ),
    signals=lambda v: (v.table.selectionModel().selectionChanged,),
    hosted=lambda v: v.show_action_rows(False),
)


def _revalidate(view: View) -> None:
    """Show the Re-validation tab and run it (the tab's own Re-validate button)."""
    view.viewer.bottom_tabs.setCurrentWidget(view.revalidate_view)
    view.revalidate_view.run_button.click()


DIFF = ModeSpec(
    mode="diff",
    view_attr="diff_view",
    unbuilt=str(
        QT_TRANSLATE_NOOP(
            "ModeToolbars", "Nothing to compare yet: publish a version of the registry first"
        )
    ),
    commands=(
        Command(
            "diff_swap",
            Pixmap.SP_BrowserReload,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Swap sides")),
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Compare B → A instead of A → B")),
            button=lambda v: v.swap_button,
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "No registry open")),
        ),
        None,
        Command(
            "diff_previous_change",
            Pixmap.SP_ArrowUp,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Previous change")),
            str(QT_TRANSLATE_NOOP("ModeToolbars", "The previous changed tool")),
            slot=lambda v: v.step_tool(-1),
            enabled=lambda v: v.can_step_tool(-1),
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "No changed tool before this one")),
            shortcut="Shift+F7",
        ),
        Command(
            "diff_next_change",
            Pixmap.SP_ArrowDown,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Next change")),
            str(QT_TRANSLATE_NOOP("ModeToolbars", "The next changed tool")),
            slot=lambda v: v.step_tool(1),
            enabled=lambda v: v.can_step_tool(1),
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "No changed tool after this one")),
            shortcut="F7",
        ),
        None,
        Command(
            "diff_export",
            Pixmap.SP_DialogSaveButton,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Export report")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars", "Save the diff as Markdown (for a pull request) or JSON"
                )
            ),
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "No diff computed yet")),
            children=(
                Command(
                    "diff_export_markdown",
                    Pixmap.SP_FileIcon,
                    str(QT_TRANSLATE_NOOP("ModeToolbars", "Markdown…")),
                    str(QT_TRANSLATE_NOOP("ModeToolbars", "Save the report for a pull request")),
                    button=lambda v: v.export_md_button,
                ),
                Command(
                    "diff_export_json",
                    Pixmap.SP_FileIcon,
                    str(QT_TRANSLATE_NOOP("ModeToolbars", "JSON…")),
                    str(QT_TRANSLATE_NOOP("ModeToolbars", "Save the diff as JSON for scripts")),
                    button=lambda v: v.export_json_button,
                ),
            ),
        ),
    ),
    signals=lambda v: (v.diffShown, v.tool_list.selectionModel().currentChanged),
    hosted=lambda v: v.show_action_rows(False),
)


def _release_blocked(view: View | None) -> str:
    """Why the channel actions are all off: no registry, or nothing published."""
    if view is None or view.registry is None:
        return QCoreApplication.translate("ModeToolbars", "No registry open")
    if view.state is None or view.state.stable_version is None:
        return QCoreApplication.translate(
            "ModeToolbars",
            "{registry} has no published version: channels serve published versions. "
            "Publish the draft first.",
        ).format(registry=view.registry)
    return ""


def _show_tab(view: View, name: str) -> None:
    view.tabs.setCurrentWidget(getattr(view, name))


RELEASE = ModeSpec(
    mode="release",
    view_attr="release_view",
    unbuilt=str(QT_TRANSLATE_NOOP("ModeToolbars", "Open the Release mode first")),
    blocked=_release_blocked,
    commands=(
        Command(
            "release_publish",
            Pixmap.SP_ArrowUp,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Publish the draft…")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars", "Publish the draft as the first version the channels can serve"
                )
            ),
            slot=lambda v: v.empty_publish_button.click(),
            enabled=lambda v: (
                not v.empty_state.isHidden() and not v.empty_publish_button.isHidden()
            ),
            hidden_when_off=True,  # once published, new versions come from the Editor
        ),
        Command(
            "release_set_canary",
            Pixmap.SP_MediaVolume,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Set canary…")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars",
                    "Serve a version to a share of subjects; says who moves and asks",
                )
            ),
            button=lambda v: v.set_canary_button,
        ),
        Command(
            "release_promote",
            Pixmap.SP_DialogApplyButton,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Promote")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars", "Make the canary's version stable (canary goes to 0 %)"
                )
            ),
            button=lambda v: v.promote_button,
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "No canary version: set a canary first")),
        ),
        Command(
            "release_pause_canary",
            Pixmap.SP_MediaPause,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Roll back canary")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars", "Set the canary to 0 %: a pause, its version stays set"
                )
            ),
            button=lambda v: v.rollback_canary_button,
            why=str(QT_TRANSLATE_NOOP("ModeToolbars", "The canary serves no one (0 %)")),
        ),
        Command(
            "release_rollback_stable",
            Pixmap.SP_ArrowBack,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Roll back stable")),
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Return stable to its previous version")),
            button=lambda v: v.rollback_stable_button,
            why=str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars", "Stable follows the newest version: nothing to roll back"
                )
            ),
        ),
        None,
        Command(
            "release_simulate",
            Pixmap.SP_FileDialogContentsView,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Simulate")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars", "Which version each subject gets with the channels as set"
                )
            ),
            slot=lambda v: _show_tab(v, "simulator"),
            enabled=lambda v: not v.splitter.isHidden(),
            low_priority=True,
        ),
        Command(
            "release_guard",
            Pixmap.SP_MessageBoxWarning,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Guard")),
            str(
                QT_TRANSLATE_NOOP(
                    "ModeToolbars", "Error rates of canary and stable from recorded outcomes"
                )
            ),
            slot=lambda v: _show_tab(v, "guard"),
            enabled=lambda v: not v.splitter.isHidden(),
            low_priority=True,
        ),
        Command(
            "release_serve",
            Pixmap.SP_DriveNetIcon,
            str(QT_TRANSLATE_NOOP("ModeToolbars", "Serve")),
            str(
                QT_TRANSLATE_NOOP("ModeToolbars", "Serve published versions over HTTP on 127.0.0.1")
            ),
            button=lambda v: v.serve_check,
        ),
    ),
    signals=lambda v: (v.changed, v.tabs.currentChanged),
    hosted=lambda v: v.show_action_rows(False),
)
