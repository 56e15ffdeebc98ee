"""What the sheets keep in a phone's server-side session, by key: the pages write
them (games.views, games.views_app) and an erasure rewrites them (games.privacy)."""

# The names this phone typed, newest first (offered on the new-sheet page).
RECENT_NAMES = "recent_names"
# The sheets this phone started: {"sheet", "game", "players", "at"}, newest first.
STARTED = "sheets_started"
# A message about a deal waiting to be shown on the sheet's next page.
NOTICE = "sheet_notice"
