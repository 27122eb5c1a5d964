from lifecycle.management.commands.migrate_schemas import Command  # noqa: F401
