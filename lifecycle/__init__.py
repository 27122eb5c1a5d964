"""The company's lifecycle: the top floor above `tenants` (docs/contributing.md, Tenants in two floors)."""
