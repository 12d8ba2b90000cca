"""The agent loop: argument pipeline, policy, executors, loop guard, run events."""
