"""Routes of this app: (prefix, router) pairs mounted by config.api."""
ROUTES: list = []
