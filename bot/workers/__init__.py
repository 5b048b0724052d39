"""Several workers on PostgreSQL: the webhook front that makes updates durable, and the loop
that processes them (claims, leases, timers, graceful hand-back)."""
