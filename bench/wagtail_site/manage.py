#!/usr/bin/env python
"""The Wagtail site of bench-public-api's anchor (bench/wagtail_anchor.py), run with Wagtail's own
virtualenv (make wagtail-venv), never the product's: `.data/venv-wagtail/bin/python
bench/wagtail_site/manage.py migrate`, then `... seed_blog --pages 10000`."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchsite.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
