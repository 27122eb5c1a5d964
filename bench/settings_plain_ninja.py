"""Settings of the plain-ninja anchor (bench/plain_ninja.py): the product's, with that endpoint
as the only URLconf of a company's host."""
from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.plain_ninja"
