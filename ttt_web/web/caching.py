"""How long shared caches may keep a page that depends on its URL alone (a review, a retry,
an explorer page, a picture): such a page never changes."""

PUBLIC_FOR_A_DAY = "public, max-age=86400"
# A page drawn short of what it should say (a picture whose names waited for the letters'
# budget): kept briefly, so it is drawn right later.
PUBLIC_FOR_A_MINUTE = "public, max-age=60"
