"""How long shared caches may keep a page that depends on its URL alone (a review, a retry,
an explorer page, a picture): such a page never changes."""

PUBLIC_FOR_A_DAY = "public, max-age=86400"
