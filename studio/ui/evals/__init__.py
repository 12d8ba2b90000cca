"""The Evals mode (issue #12 part 8): eval sets and cases, runs, and the A vs B report.

- :mod:`studio.ui.evals.mode` — the mode's action, mode-bar button and toolbar (imported
  at start-up, so it stays light: the page is built on first use);
- :mod:`studio.ui.evals.evals_view` — the mode's page (sets, cases, runs, report);
- :mod:`studio.ui.evals.cases_model` — the cases table and its tag/result filters;
- :mod:`studio.ui.evals.case_dialog` — one case edited as JSON, problems by JSON path;
- :mod:`studio.ui.evals.run_dialog` / :mod:`studio.ui.evals.run_controller` — a run
  on the GUI's event loop, with progress, cancel and resume;
- :mod:`studio.ui.evals.report_view` — headline, table, confusion heat map, flips, bars;
- :mod:`studio.ui.evals.session_case` — "Add as eval case" from a session step;
- :mod:`studio.ui.evals.publish_section` — the eval gate beside the publish review.

Nothing is imported here, so ``import studio.ui.evals.mode`` costs no eval machinery.
"""
