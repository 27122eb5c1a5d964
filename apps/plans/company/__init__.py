"""The plan's counters of one company, in its own schema (apps.plans.rules): a content write's
limit check is a row of the company's schema, written on the node that holds the company."""
