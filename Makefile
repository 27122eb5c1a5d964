SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export PYTHONPATH := $(CURDIR)/platform:$(CURDIR)
# Three processes on two cores: the suite's server tests wait (on workers, leases, restarts) while a
# third process uses the core they leave: 656 s -> 480 s on the same machine (docs/testing.md).
PYTEST_WORKERS ?= 3
# npm ci unless node_modules was installed from this very package-lock.json (npm's own copy of it
# in node_modules is newer): `make test` installs the dashboard's packages once, not once per target.
NPM_CI = { [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund; }
# Benchmarks run the production settings (DEBUG off), which need signing keys: throw-away ones.
NEW_KEY = $$($(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(48))')
BENCH_KEYS = SECRET_KEY="$(NEW_KEY)" JWT_SECRET="$(NEW_KEY)"

.PHONY: help install bytecode packages services db migrate seed dashboard dev run test test-backend docs docs-serve test-dashboard test-sdk test-e2e chromium nginx pgbouncer varnish citus test-scale bench-citus bench-citus-metadata \
        flower bench-edge bench-replica bench-companies bench-loops bench-provision bench-migrate bench-media bench-content bench-revisions bench-import bench-translations bench-ai bench-webhooks bench-newsletter bench-public-api wagtail-venv bench-track bench-dashboard wrk lint clean \
        fuzz fuzz-import bench-load bench-tests bench-smoke profile-public-api

help:
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

install: $(VENV)/.installed ## create the virtualenv and install the Python dependencies

# uv installs the same pinned packages as pip from the same registry, downloading in parallel: on a
# fresh machine about 80 s against 190 s for pip. pip installs them when uv cannot be had.
UV_VERSION = 0.13.8
$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	if $(BIN)/pip install --quiet "uv==$(UV_VERSION)"; then \
	  $(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode -e ".[test,docs]"; \
	else $(BIN)/pip install --quiet --upgrade pip && $(BIN)/pip install --quiet -e ".[test,docs]"; fi
	touch $@

# The project's own modules compiled once (the virtualenv's packages are compiled by their install):
# without it, and with PYTHONDONTWRITEBYTECODE set as the image and many shells set it, every
# process compiles every module it imports again, and a preloaded web server's workers inherit the
# compiler's leftovers (about 1 MB each: docs/performance.md).
bytecode: install ## compile the project's Python modules (what .ci/run, the benchmarks and the image do)
	$(BIN)/python -m compileall -q -j 0 -x '/(node_modules|\.venv|\.data)/' apps platform lifecycle tenants deploy bench \
	  conftest.py manage.py >/dev/null

services: ## make sure PostgreSQL and Redis answer (start them if needed)
	bash deploy/dev/services.sh

db: services
	bash deploy/dev/createdb.sh

migrate: install db ## migrate the public schema, the provisioning template and every tenant
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate_schemas --noinput

PORT ?= 8000

seed: migrate ## create the demo tenant (demo) with its admin and sample content
	DEBUG=$${DEBUG:-1} PUBLIC_PORT=$${PUBLIC_PORT:-$(PORT)} $(BIN)/python manage.py seed_demo

dashboard: ## build the dashboard (served by Django on every host)
	@if [ -f dashboard/package.json ]; then cd dashboard && (if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi) && npm run build; \
	else echo "no dashboard to build"; fi

# The development stack: the production web server (granian) with reload, on 127.0.0.1:$(PORT).
# PORT=9000 make dev moves it; DEV_HOST=0.0.0.0 opens it to the network (debug pages included).
DEV_HOST ?= 127.0.0.1
DEV_ENV = PATH="$(CURDIR)/$(BIN):$$PATH" DEBUG=1 WEB_HOST=$(DEV_HOST) WEB_PORT=$(PORT) PUBLIC_PORT=$(PORT) \
	WEB_RELOAD=1 WEB_WORKERS=1 WEB_THREADS=4 WEB_ACCESS_LOG=0

dev: seed dashboard ## set up everything and run web + worker + beat (Ctrl-C stops all)
	@$(MAKE) --no-print-directory run

run: ## run web + worker + beat without setting up
	@echo ""
	@echo "  Dashboard: http://demo.localhost:$(PORT)   login: admin@example.com / admin12345"
	@echo "  Sign-up:   http://localhost:$(PORT)/register"
	@echo ""
	$(DEV_ENV) $(BIN)/honcho -d $(CURDIR) -f deploy/dev/Procfile start

test: docs test-backend test-dashboard test-sdk test-e2e ## run every test: the docs build, backend, dashboard, content SDK, browser flows

# The documentation site (mkdocs.yml, docs/): --strict, so a broken link, anchor, nav entry or
# included file fails the build. Output in site/ (git-ignored); open site/index.html.
# Material for MkDocs prints a notice on every build (its end of life in May 2027; Zensical, by the
# same team, is its successor): silenced, it asks nothing of a build.
DOCS_ENV = NO_MKDOCS_2_WARNING=1
DOCS_PORT ?= 8001

docs: install ## build the documentation site into site/ (strict: broken links fail)
	$(DOCS_ENV) $(BIN)/mkdocs build --strict --quiet

docs-serve: install ## serve the documentation site with reload on 127.0.0.1:8001 (DOCS_PORT moves it)
	$(DOCS_ENV) $(BIN)/mkdocs serve --strict --dev-addr 127.0.0.1:$(DOCS_PORT)

# The backend suite runs on a private PostgreSQL cluster of its own (TEST_POSTGRES=shared: on
# DATABASE_URL) and ends with its slowest tests and its time per test (docs/testing.md).
test-backend: install services nginx pgbouncer varnish
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS)

bench-tests: install services nginx pgbouncer varnish ## the backend suite as a benchmark: tests, wall time, time per test by tenth
	mkdir -p bench/results
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -q --slowest 25 --suite-report bench/results/tests.json

# Each module's cluster in a process of its own (--dist loadfile: a module's tests stay together,
# in file order): the replica, the outbox faults and the Citus modules run side by side.
SCALE_WORKERS ?= 1
test-scale: install services pgbouncer varnish ## the heavy engine tests (a private primary + streaming replica, a three-node Citus cluster): run by CI after make test
	CITUS_OPTIONAL=1 CITUS_TARBALL="$(CITUS_TARBALL)" bash deploy/citus/install.sh
	$(BIN)/python -m pytest -n $(SCALE_WORKERS) --dist loadfile -m scale

test-dashboard:
	@if [ -f dashboard/package.json ]; then cd dashboard && $(NPM_CI) && npm test; \
	else echo "no dashboard tests"; fi

test-sdk: install services ## the content SDK (sdk/) against a real server
	@if [ -f sdk/package.json ]; then cd sdk && $(NPM_CI) && npm test; \
	else echo "no sdk"; fi

test-e2e: install services chromium ## browser flows (Playwright + Chromium) against the real backend
	@if [ -f dashboard/package.json ]; then cd dashboard && $(NPM_CI) && npm run test:e2e; \
	else echo "no dashboard"; fi

# Debian packages: what each package depends on, without what it only recommends (93 of a fresh
# machine's 155 packages, most of them Chromium's, which a headless browser never uses: printer
# setup, avahi, samba's libraries, udev, upower). Its fonts are named instead, so that screenshots
# render with the same fonts as before.
APT_INSTALL = DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends
CHROMIUM_PACKAGES = chromium fonts-liberation

nginx: ## nginx with the brotli_static module, for the static-asset tests, when missing (Debian/Ubuntu)
	@{ [ -x /usr/sbin/nginx ] && ls /etc/nginx/modules-enabled/ 2>/dev/null | grep -q brotli; } || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then apt-get update -qq && \
	    $(APT_INSTALL) nginx-light libnginx-mod-http-brotli-static; \
	  else echo "nginx with brotli_static not installed: its test is skipped (apt-get install nginx-light libnginx-mod-http-brotli-static)"; fi; }

pgbouncer: ## PgBouncer, for the connection-pooler tests, when missing (Debian/Ubuntu)
	@command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then apt-get update -qq && \
	    $(APT_INSTALL) pgbouncer; \
	  else echo "pgbouncer not installed: its tests are skipped (apt-get install pgbouncer)"; fi; }

varnish: ## Varnish 7 with varnish-modules (xkey, vsthrottle), for the HTTP cache tests, when missing
	@{ [ -x /usr/sbin/varnishd ] && ls /usr/lib/*/varnish/vmods/libvmod_xkey.so >/dev/null 2>&1; } || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then apt-get update -qq && \
	    $(APT_INSTALL) varnish varnish-modules; \
	  else echo "varnish + varnish-modules not installed: their tests are skipped (apt-get install varnish varnish-modules)"; fi; }

# Every Debian package the tests and benchmarks use, in one apt-get run (one package list update)
# when any is missing: what the targets nginx, pgbouncer, varnish, wrk and chromium each install
# when used alone, and the packages building Citus needs (deploy/citus/install.sh). CI runs it first,
# in the background.
packages: ## install every Debian package the tests and benchmarks use, when missing (one apt-get run)
	@missing=""; \
	{ [ -x /usr/sbin/nginx ] && ls /etc/nginx/modules-enabled/ 2>/dev/null | grep -q brotli; } || missing="$$missing nginx-light libnginx-mod-http-brotli-static"; \
	command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] || missing="$$missing pgbouncer"; \
	{ [ -x /usr/sbin/varnishd ] && ls /usr/lib/*/varnish/vmods/libvmod_xkey.so >/dev/null 2>&1; } || missing="$$missing varnish varnish-modules"; \
	command -v wrk >/dev/null 2>&1 || missing="$$missing wrk"; \
	command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing="$$missing $(CHROMIUM_PACKAGES)"; \
	missing="$$missing $$(CITUS_TARBALL="$(CITUS_TARBALL)" bash deploy/citus/install.sh --missing-build-deps | tr '\n' ' ')"; \
	missing="$$(echo $$missing)"; \
	if [ -z "$$missing" ]; then echo "Debian packages: every one installed"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then echo "Debian packages: installing $$missing"; \
	  apt-get update -qq && $(APT_INSTALL) $$missing; \
	else echo "Debian packages missing: $$missing (as root: make packages); the targets that need them say so"; fi

chromium: ## install Chromium for the browser tests when missing (Debian/Ubuntu)
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && $(APT_INSTALL) $(CHROMIUM_PACKAGES); \
	  else echo "Chromium is needed for the browser tests: sudo apt-get install -y chromium"; exit 1; fi; }

# Citus (the scale tests' and bench-citus' three-node cluster) built from its source tarball against
# the system's PostgreSQL when citus.so is missing; CITUS_TARBALL names the tarball (by default the
# vendored one beside the checkout: deploy/citus/install.sh). In production Citus comes from its own
# packages (docs/scaling.md).
CITUS_TARBALL ?=
citus: ## build and install Citus for the system's PostgreSQL when missing (Debian build dependencies included)
	CITUS_TARBALL="$(CITUS_TARBALL)" bash deploy/citus/install.sh

flower: install ## Flower, the Celery monitor, on :5555 (FLOWER_BASIC_AUTH=user:pass to protect it)
	$(BIN)/celery -A config flower --port=$${FLOWER_PORT:-5555} $${FLOWER_BASIC_AUTH:+--basic-auth=$$FLOWER_BASIC_AUTH}

bench-companies: install db ## 100 and 10,000 companies on one PostgreSQL: sign-up, migrate_schemas, backup/restore, sizes, latency (about an hour)
	$(BENCH_KEYS) $(BIN)/python bench/companies.py

bench-loops: install db ## the periodic work that visits companies at 10,000 companies: each loop's pass against its period
	$(BENCH_KEYS) $(BIN)/python bench/loops.py

bench-provision bench-migrate: install db ## the same with 100 and 1,000 companies (a few minutes)
	$(BENCH_KEYS) $(BIN)/python bench/companies.py 100,1000

bench-media: install db ## media: upload checks, renditions, a refused pixel bomb, list over 1000 rows
	$(BENCH_KEYS) $(BIN)/python bench/media.py

bench-content: install db ## content: 10,000 posts; median latency of list, search and get-by-slug
	$(BENCH_KEYS) $(BIN)/python bench/content.py

bench-webhooks: install db ## webhooks: median and p90 ms from a publish's commit to the receiver, real worker
	$(BENCH_KEYS) $(BIN)/python bench/webhooks.py

bench-newsletter: install db ## newsletters: a send to 100,000 members, real worker and SMTP server: emails/s, <= 300 s, vs bare smtplib; worker RSS; public reads during it; worker killed 3 times: every member one email
	$(BENCH_KEYS) $(BIN)/python bench/newsletter.py

bench-translations: install db ## translations: list and by-slug with ?locale= against without, 10,000 posts in 3 languages
	$(BENCH_KEYS) $(BIN)/python bench/translations.py

bench-revisions: install db ## revisions: median save with revisions, autosave, revisions list and its statement count
	$(BENCH_KEYS) $(BIN)/python bench/revisions.py

bench-import: install db ## blog import: a generated WXR of 10,000 posts x 3 terms (posts/s, <= 60 s, a re-run creates nothing), 1,000 local images (images/s), 1,000 images from an images archive (images/s, <= 120 s)
	$(BENCH_KEYS) $(BIN)/python bench/import_blog.py

bench-ai: install db ## AI writing: offline drafts, generate calls through a real worker and a fake Gemini
	$(BENCH_KEYS) $(BIN)/python bench/ai.py

wrk:
	@command -v wrk >/dev/null || (apt-get update -qq && $(APT_INSTALL) wrk)

# Wagtail's anchor runs in a full run (BENCH_WAGTAIL=0 skips it); in smoke mode only with BENCH_WAGTAIL=1
# (its virtualenv and seed are 25-40 s of a fresh machine's bench-smoke, whose figures say nothing).
WAGTAIL_WANTED = $(if $(filter 0,$(BENCH_WAGTAIL)),,$(if $(BENCH_SMOKE),$(filter 1,$(BENCH_WAGTAIL)),1))
bench-public-api: bytecode db wrk $(if $(WAGTAIL_WANTED),wagtail-venv) ## public API, 10,000 posts: req/s, p50/p99, ratios to a bare app, a plain ninja list and Wagtail's API list and search (BENCH_WAGTAIL=0 skips Wagtail, smoke mode runs it only with BENCH_WAGTAIL=1; BENCH_SCALE_TO=100000: search at 100,000)
	$(BENCH_KEYS) $(BIN)/python bench/public_api.py

# Wagtail, the anchor of bench-public-api (bench/wagtail_anchor.py, bench/wagtail_site), in a
# virtualenv of its own, so that the product's .venv never holds it; installed as `install` installs
# the product's (uv, else pip), on the product's Django. It lives under .data/ (git-ignored), not
# beside .venv: deploy/tests/test_docs.py walks the work tree but .venv and .data, and a package that
# Wagtail installs names a docs/ page of its own. The stamp holds the packages: with the same ones
# the target does nothing.
WAGTAIL_VENV := .data/venv-wagtail
WAGTAIL_PACKAGES := wagtail==8.0.1 Django==5.2.19 granian==2.8.7 psycopg[binary]==3.3.9
wagtail-venv: install ## Wagtail's own virtualenv (.data/venv-wagtail) for bench-public-api's anchor; the product's .venv untouched
	@if [ "$$(cat $(WAGTAIL_VENV)/.installed 2>/dev/null)" != "$(WAGTAIL_PACKAGES)" ]; then \
	  echo "installing $(WAGTAIL_PACKAGES) into $(WAGTAIL_VENV)"; \
	  test -x $(WAGTAIL_VENV)/bin/python || $(PYTHON) -m venv $(WAGTAIL_VENV); \
	  if [ -x $(BIN)/uv ]; then \
	    $(BIN)/uv pip install --quiet --python $(WAGTAIL_VENV)/bin/python --compile-bytecode $(foreach p,$(WAGTAIL_PACKAGES),"$(p)"); \
	  else $(WAGTAIL_VENV)/bin/pip install --quiet $(foreach p,$(WAGTAIL_PACKAGES),"$(p)"); fi && \
	  echo "$(WAGTAIL_PACKAGES)" > $(WAGTAIL_VENV)/.installed; fi

bench-dashboard: install services chromium ## dashboard: JS bytes (sign-in, editor) and Sign In to stat cards median
	cd dashboard && { [ -n "$$BENCH_SMOKE" ] && [ -d node_modules ] || npm ci --no-audit --no-fund >/dev/null; } && \
	  node ../bench/dashboard.mjs

bench-edge: install db wrk varnish ## Varnish cache hits vs the bare WSGI app with the same bytes vs the app's fast path
	$(BENCH_KEYS) $(BIN)/python bench/edge.py

bench-replica: install db wrk ## uncached public lists from a streaming replica vs the primary alone (private clusters)
	$(BENCH_KEYS) $(BIN)/python bench/replica.py

bench-citus: install citus ## one PostgreSQL vs a three-node Citus cluster, same run: sign-up, uncached lists, a company's move
	$(BENCH_KEYS) $(BIN)/python bench/citus.py

bench-citus-metadata: install citus ## Citus's metadata, routed reads and session memory as companies are added (25 to 500)
	$(BENCH_KEYS) $(BIN)/python bench/citus_metadata.py

bench-track: install db wrk ## page-view tracking under load, then flush + rollup throughput, every event counted
	$(BENCH_KEYS) $(BIN)/python bench/track.py

fuzz: install services ## schemathesis over both APIs with FUZZ_EXAMPLES (300) requests per operation
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-300} $(BIN)/python -m pytest -n $(PYTEST_WORKERS) apps/core/tests/hardening/test_schemathesis.py

# The structure-aware fuzz tests of the import parsers and Ghost's filter grammar (run by make test
# with a small fixed budget) with FUZZ_EXAMPLES examples per property (docs/hardening.md).
FUZZ_IMPORT_TESTS = apps/portability/tests/test_fuzz_parsers.py apps/ghost_api/tests/test_fuzz_filters.py \
                    apps/members/tests/test_fuzz_csv.py
fuzz-import: install services ## Hypothesis over the import parsers and Ghost's filters with FUZZ_EXAMPLES (20000) examples per property
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-20000} $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --timeout 0 $(FUZZ_IMPORT_TESTS)

bench-load: install ## 10-minute mixed load on gunicorn (BENCH_SECONDS to shorten): req/s, p50/p99, errors, RSS
	$(BENCH_KEYS) $(BIN)/python bench/load.py

# Every benchmark target once in smoke mode (bench/common.py: small data, a second or two of load,
# the same path from an empty database to the printed figures), so a benchmark that stopped
# running is noticed: CI runs it after test-scale. The Python benchmarks run BENCH_SMOKE_JOBS (2)
# at a time (each has its own database, Redis key prefix, queue and ports; their figures say
# nothing about speed anyway), then bench-dashboard alone (its server empties its Redis database).
# bench-companies and bench-migrate run the same script as bench-provision. The longest come first,
# so that none of them starts last (measured: the total stayed at about 196 s, the two jobs already
# near even).
BENCH_SMOKE_TARGETS ?= bench-citus bench-public-api profile-public-api bench-newsletter bench-provision bench-replica \
	bench-loops bench-load bench-edge bench-track bench-ai bench-webhooks bench-import bench-revisions bench-media \
	bench-translations bench-content
BENCH_SMOKE_JOBS ?= 2
bench-smoke: install db wrk varnish chromium ## every benchmark in smoke mode (small data, seconds of load): fails if any fails
	@started=$$(date +%s); status=0; \
	$(MAKE) --no-print-directory -k -j$(BENCH_SMOKE_JOBS) --output-sync=target \
	  $(addprefix smoke-,$(BENCH_SMOKE_TARGETS)) || status=1; \
	$(MAKE) --no-print-directory smoke-bench-dashboard || status=1; \
	echo "bench-smoke: $$(( $$(date +%s) - started )) s in all"; \
	if [ $$status = 0 ]; then echo "bench-smoke: every benchmark ran"; else echo "bench-smoke: FAILED (above)"; fi; \
	exit $$status

smoke-%:
	@begun=$$(date +%s); echo "=== $* (BENCH_SMOKE=1)"; \
	if BENCH_SMOKE=1 $(MAKE) --no-print-directory $*; then echo "=== $*: ran in $$(( $$(date +%s) - begun )) s"; \
	else echo "=== $*: FAILED after $$(( $$(date +%s) - begun )) s"; exit 1; fi

profile-public-api: install wrk ## where a public API request's time goes: py-spy, pg_stat_statements, EXPLAIN (docs/performance.md)
	$(BENCH_KEYS) $(BIN)/python bench/profile_public_api.py

clean:
	rm -rf $(VENV) .data dashboard/node_modules dashboard/dist sdk/node_modules sdk/dist site
