"""What a test's browser command saw, handed to the test: the outcome as JSON in $TEST_BROWSER_LOG, renamed into
place so the test never reads half of it, and the exit status (1 when the outcome holds an "error")."""
import json
import os
import sys


def report(outcome):
    log_path = os.environ["TEST_BROWSER_LOG"]
    with open(log_path + ".tmp", "w") as handle:
        json.dump(outcome, handle)
    os.rename(log_path + ".tmp", log_path)
    sys.exit(0 if "error" not in outcome else 1)
