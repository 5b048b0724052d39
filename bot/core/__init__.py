"""Pure quiz logic: no Telegram, SQL, YAML or gettext imports (a test holds this)."""
