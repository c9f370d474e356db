"""The review of a finished game, the retries of its mistakes and its preview picture."""
