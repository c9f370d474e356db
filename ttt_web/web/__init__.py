"""The web plumbing every feature shares: sessions, the player's record, the board's view,
URLs, errors, security headers and rate limits."""
