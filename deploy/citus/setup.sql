-- Citus schema-based sharding for the CMS (docs/scaling.md). Run once on the coordinator, before
-- the first migrate_schemas, with the nodes' addresses as psql variables:
--
--   psql -v ON_ERROR_STOP=1 -v coordinator_host=postgres -v coordinator_port=5432 \
--        -v worker1_host=citus-worker-1 -v worker1_port=5432 \
--        -v worker2_host=citus-worker-2 -v worker2_port=5432 -d cms -f deploy/citus/setup.sql
--
-- The citus extension must exist in the database on every node first (Citus's packages and
-- images create it; otherwise CREATE EXTENSION citus on each node). Checked by
-- lifecycle/tests/test_citus.py (make test-scale) on a coordinator and two workers.
CREATE EXTENSION IF NOT EXISTS citus;
SELECT citus_set_coordinator_host(:'coordinator_host', :coordinator_port);
SELECT citus_add_node(:'worker1_host', :worker1_port) WHERE NOT EXISTS
    (SELECT 1 FROM pg_dist_node WHERE nodename = :'worker1_host' AND nodeport = :worker1_port);
SELECT citus_add_node(:'worker2_host', :worker2_port) WHERE NOT EXISTS
    (SELECT 1 FROM pg_dist_node WHERE nodename = :'worker2_host' AND nodeport = :worker2_port);
-- Every schema created from now on (each company's, the template, the spare schemas) is
-- distributed as a unit: all its tables on one worker.
ALTER DATABASE :"DBNAME" SET citus.enable_schema_based_sharding = on;
-- The counter triggers of a company's tables (apps/content migrations 0003, 0004, 0008) write
-- only tables of the same schema, which live on the same node: safe, but Citus asks to be told.
ALTER DATABASE :"DBNAME" SET citus.enable_unsafe_triggers = on;
-- The public tables that company tables are joined with become reference tables (copied to
-- every node) when migrate_schemas creates them (lifecycle/citus.py).
