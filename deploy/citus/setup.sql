-- Citus schema-based sharding for the CMS (deploy/citus/docker-compose.citus.yml; docs/scaling.md).
-- Not exercised in CI. Run once on the coordinator, before the first migrate_schemas.
CREATE EXTENSION IF NOT EXISTS citus;
SELECT citus_set_coordinator_host('postgres', 5432);
SELECT * FROM citus_add_node('citus-worker-1', 5432) WHERE NOT EXISTS
    (SELECT 1 FROM pg_dist_node WHERE nodename = 'citus-worker-1');
SELECT * FROM citus_add_node('citus-worker-2', 5432) WHERE NOT EXISTS
    (SELECT 1 FROM pg_dist_node WHERE nodename = 'citus-worker-2');
-- Every schema created from now on (each company's, at sign-up) is distributed as a unit.
ALTER DATABASE cms SET citus.enable_schema_based_sharding = on;
-- After the first migrate_schemas, make the small public tables joined with company tables
-- reference tables (apps/core/sharding.py REFERENCE_TABLES), e.g.:
--   SELECT create_reference_table('public.tenants_client');
--   SELECT create_reference_table('public.tenants_domain');
--   SELECT create_reference_table('public.django_content_type');
